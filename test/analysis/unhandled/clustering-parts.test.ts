// The parts of the clustering of unhandled questions, each against what it must do by construction: masking
// (an apostrophe joins a word), terms (Snowball stems of Russian and English, stop words out, negations kept),
// labels cut at a word, ids unique and free of NAMING_STOP, Louvain's communities on a graph whose answer is
// known, average linkage, carry-over (shared texts first, a split topic's id to its larger part, a previous id
// never given to another topic), the distinct texts collected one by one, the keys two asked texts share, and
// the Hungarian assignment the scores use.
import { describe, expect, it } from 'vitest';
import { maxAssignment } from '../../../bench/cluster-scores.js';
import { averageLinkage } from '../../../src/analysis/unhandled/average-linkage.js';
import { carryOverIds, profileCosine } from '../../../src/analysis/unhandled/carry-over-ids.js';
import { distinctTexts } from '../../../src/analysis/unhandled/distinct-texts.js';
import { graphOf } from '../../../src/analysis/unhandled/knn-graph.js';
import { louvain } from '../../../src/analysis/unhandled/louvain.js';
import { maskQuestion } from '../../../src/analysis/unhandled/normalise-question.js';
import { questionTerms } from '../../../src/analysis/unhandled/question-terms.js';
import { indexOfText, sharedKeys } from '../../../src/analysis/unhandled/text-keys.js';
import { centralLabel, shorten } from '../../../src/analysis/unhandled/topic-label.js';
import { assignIds, topicId } from '../../../src/analysis/unhandled/topic-names.js';

describe('masking and terms', () => {
  it('masks e-mails, phones and numbers, drops punctuation and case, keeps letters of any script', () => {
    expect(
      maskQuestion('Пришлите СЧЁТ на Ivan.Petrov@mail.ru, тел. +7 (912) 345-67-89, заказ №12345!!!'),
    ).toBe('пришлите счет на <email> тел <phone> заказ no <n>');
    expect(maskQuestion('ｆｕｌｌ\u0007width ２０２６')).toBe('full width <n>');
  });

  it("joins a word at its apostrophe: no stray 't' or 's' terms", () => {
    expect(maskQuestion("I didn't get my card’s PIN")).toBe('i didnt get my cards pin');
    expect(questionTerms(maskQuestion("I didn't get my card's PIN"))).toEqual(['card', 'pin']);
  });

  it('stems Russian and English by their Snowball stemmers, ignoring order, case, stop words and endings', () => {
    expect(questionTerms(maskQuestion('Можно купить ПОДАРОЧНЫЙ сертификат?'))).toEqual(
      questionTerms(maskQuestion('сертификаты подарочные купить')),
    );
    expect(questionTerms(maskQuestion('My cards were DECLINED'))).toEqual(['card', 'declin']);
    expect(questionTerms(maskQuestion('card declined?'))).toEqual(['card', 'declin']);
    // negations change an intent: they stay
    expect(questionTerms(maskQuestion('промокод не работает'))).toContain('не');
    expect(questionTerms(maskQuestion('the card does not work'))).toContain('not');
  });
});

describe('labels and ids', () => {
  it('cuts a long phrasing at a word, with "…", to at most 80 characters', () => {
    const long = 'why '.repeat(30).trim();
    const cut = shorten(long);
    expect(Array.from(cut).length).toBeLessThanOrEqual(80);
    expect(cut.endsWith('why…')).toBe(true);
    expect(shorten('short question')).toBe('short question');
  });

  it('labels a topic with its most frequent phrasing among the nearly most central short ones', () => {
    const texts = ['a rare typo varaint', 'the usual phrasing', 'x'.repeat(100)];
    const sim = [0.95, 0.9, 0.99];
    expect(centralLabel([0, 1, 2], texts, (i) => sim[i]!, Float64Array.from([1, 40, 50]))).toBe(
      'the usual phrasing',
    );
    // none short enough: the most central one, cut
    expect(centralLabel([2], texts, (i) => sim[i]!, Float64Array.from([1, 1, 1])).length).toBeLessThanOrEqual(
      80,
    );
  });

  it('gives unique ids from the top 3 terms, NAMING_STOP left out; the smaller topic takes one more term', () => {
    const ids = assignIds([
      ['how', 'card', 'activ', 'new', 'pin'],
      ['card', 'activ', 'pin', 'much', 'limit'],
    ]);
    expect(ids[0]).toEqual({ id: topicId(['card', 'activ', 'pin']), terms: ['card', 'activ', 'pin'] });
    expect(ids[1]!.terms).toEqual(['card', 'activ', 'pin', 'limit']);
    expect(new Set(ids.map((x) => x.id)).size).toBe(2);
    expect(topicId(['b', 'a'])).toBe(topicId(['a', 'b']));
    expect(ids[0]!.id).toMatch(/^u-[0-9a-f]{12}$/);
  });
});

describe('communities and merging', () => {
  /** Two cliques of 4 (weights 1) joined by one weak edge (0.1). */
  function twoCliques() {
    const edges = new Map<number, number>();
    const n = 8;
    for (const base of [0, 4])
      for (let a = base; a < base + 4; a++) for (let b = a + 1; b < base + 4; b++) edges.set(a * n + b, 1);
    edges.set(3 * n + 4, 0.1);
    return graphOf(n, edges, true);
  }

  it('Louvain finds the two cliques, numbered by first node', () => {
    expect([...louvain(twoCliques(), 1)]).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
  });

  it('Louvain moves a node that starts in the wrong community (a start is a start, not a constraint)', () => {
    const start = Int32Array.from([0, 1, 2, 4, 4, 5, 6, 7]); // node 3 starts with node 4
    expect([...louvain(twoCliques(), 1, start)]).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
  });

  it('average linkage merges groups while their mean cosine reaches the threshold', () => {
    // unit means in 2-d: two near each other, one apart
    const mean = Float64Array.from([1, 0, 0.99, 0.141, 0, 1]);
    expect([...averageLinkage(mean, Float64Array.from([1, 1, 1]), 3, 2, 0.9)]).toEqual([0, 0, 1]);
    expect([...averageLinkage(mean, Float64Array.from([1, 1, 1]), 3, 2, 0.999)]).toEqual([0, 1, 2]);
  });
});

describe('carry-over of ids', () => {
  const profile = (...terms: string[]) => terms.map((t, i) => [t, 10 - i, 5] as [string, number, number]);
  const previous = [
    { id: 'u-aaaaaaaaaaaa', terms: ['card', 'activ'], profile: profile('card', 'activ', 'new') },
    { id: 'u-bbbbbbbbbbbb', terms: ['rate', 'exchang'], profile: profile('rate', 'exchang', 'currenc') },
  ];

  it('a topic with a similar profile takes the previous id; an unrelated one gets a fresh id', () => {
    const ids = carryOverIds(
      [
        { ranked: ['card', 'activ', 'new'], profile: profile('card', 'activ', 'new') },
        { ranked: ['refund', 'item', 'return'], profile: profile('refund', 'item', 'return') },
      ],
      previous,
    );
    expect(ids[0]).toEqual({ id: 'u-aaaaaaaaaaaa', terms: ['card', 'activ'] });
    expect(ids[1]!.id).not.toMatch(/^u-(a|b)+$/);
    expect(profileCosine(previous[0]!.profile, previous[1]!.profile)).toBe(0);
  });

  it('shared texts rank above profiles, and a split topic’s id goes to its larger part', () => {
    // topics 0 and 1 both come from previous topic 0 (600 and 300 of its 900 messages); topic 1 alone is a
    // purer piece (all its messages from it) but smaller: the id goes to topic 0
    const shared = [
      [600, 0],
      [300, 0],
    ];
    const ids = carryOverIds(
      [
        { ranked: ['card', 'new'], profile: profile('card', 'new') },
        { ranked: ['activ', 'card'], profile: profile('activ', 'card') },
      ],
      previous,
      { shared: (i, j) => shared[i]![j]!, size: (i) => [800, 300][i]!, previousSize: () => 900 },
    );
    expect(ids[0]!.id).toBe('u-aaaaaaaaaaaa');
    expect(ids[1]!.id).not.toBe('u-aaaaaaaaaaaa');
  });

  it('never gives a previous topic’s id to another topic, even when the terms would make it', () => {
    const taken = topicId(['refund', 'item', 'return']);
    const ids = carryOverIds(
      [{ ranked: ['refund', 'item', 'return', 'late'], profile: profile('late', 'deliveri') }],
      [{ id: taken, terms: ['refund', 'item', 'return'], profile: profile('refund', 'item', 'return') }],
    );
    expect(ids[0]!.id).not.toBe(taken);
  });
});

describe('the Hungarian assignment of the scores', () => {
  it('finds the best one-to-one total, rectangular matrices too', () => {
    expect(
      maxAssignment([
        [3, 1],
        [2, 2],
      ]),
    ).toBe(5);
    expect(
      maxAssignment([
        [1, 9, 1],
        [1, 8, 7],
      ]),
    ).toBe(16);
    expect(maxAssignment([[5], [6], [1]])).toBe(6);
  });
});

describe('distinct texts and their keys', () => {
  it('counts questions by masked text, sorted, whatever their order, each question pointing at its text', () => {
    const d = distinctTexts([
      { question: 'Где мой заказ 123?', current: 2, previous: 1 },
      { question: 'card blocked', current: 0, previous: 4 },
      { question: 'где мой ЗАКАЗ 77', current: 3, previous: 0 },
    ]);
    expect(d.texts).toEqual(['card blocked', 'где мой заказ <n>']);
    expect([...d.current, ...d.previous]).toEqual([0, 5, 4, 1]);
    expect([...d.textOf]).toEqual([1, 0, 1]);
    expect([indexOfText(d.texts, 'где мой заказ <n>'), indexOfText(d.texts, 'где')]).toEqual([1, -1]);
  });

  it('finds the keys two questions asked in the period share, not those shared with one not asked', () => {
    const keys = Float64Array.from([7, 3, 7, 9, 3, 9, 2 ** 53 - 1, 2 ** 53 - 1]);
    const asked = Uint8Array.from([1, 1, 1, 1, 0, 1, 1, 1]);
    expect(sharedKeys(keys, asked)).toEqual([7, 9, 2 ** 53 - 1]);
    expect(sharedKeys(Float64Array.from([1, 2, 3]), Uint8Array.from([1, 1, 1]))).toEqual([]);
  });
});
