// Step: the clusters of unhandled questions on real questions (issue 48): Banking77 and CLINC150
// (test/fixtures/unhandled/, their licences beside them), each clustered by the product (never told the
// number of intents) and by the TF-IDF + k-means baseline told the true k, side by side in the same run, each
// a child process (bench/children/score-real-corpus.ts). Targets: NMI ≥ 0.60, purity ≥ 0.50 ("other" pooled
// as one cluster), no cluster over 5 %, ≤ 3 clusters per intent, NMI ≥ the baseline's; no id in both corpora.
import { join } from 'node:path';
import type { BenchContext } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import type { ClusterScores } from '../cluster-scores.js';
import { childScript, REPO_ROOT, runChild } from '../run-child.js';

export const REAL_CORPORA = ['banking77', 'clinc150'] as const;

interface Scored extends ClusterScores {
  questions: number;
  intents: number;
  seconds: number;
  longestLabel: number;
  ids: string[];
}

async function score(ctx: BenchContext, method: string, corpus: string): Promise<Scored> {
  const file = join(REPO_ROOT, 'test', 'fixtures', 'unhandled', `${corpus}.tsv.gz`);
  const child = await runChild(childScript('score-real-corpus.js'), [method, file], {
    resourcesFile: join(ctx.dir, `resources-unhandled-real-${method}-${corpus}.json`),
  });
  if (child.exitCode !== 0)
    throw new Error(`the unhandled-real step (${method}, ${corpus}) failed: ${child.stderr.slice(-2000)}`);
  return JSON.parse(child.stdout) as Scored;
}

function figuresOf(prefix: string, s: Scored): StepFigures {
  return {
    [`${prefix}Nmi`]: { value: s.nmi, unit: 'ratio' },
    [`${prefix}Ari`]: { value: s.ari, unit: 'ratio' },
    [`${prefix}Purity`]: { value: s.purity, unit: 'ratio' },
    [`${prefix}Accuracy`]: { value: s.accuracy, unit: 'ratio' },
    [`${prefix}LargestShare`]: { value: s.largestShare, unit: 'ratio' },
    [`${prefix}OtherShare`]: { value: s.otherShare, unit: 'ratio' },
    [`${prefix}Clusters`]: { value: s.clusters, unit: 'count' },
    [`${prefix}MaxClustersPerIntent`]: {
      value: s.maxClustersPerIntent,
      unit: 'count',
      note: `intents the majority of 0/1/2/3/4+ clusters: ${s.perIntentHistogram.join('/')}`,
    },
    [`${prefix}Seconds`]: { value: s.seconds, unit: 's' },
  };
}

export const unhandledRealStep: BenchStep = {
  id: 'unhandled-real',
  title: 'Clusters of real questions (Banking77, CLINC150) against their true intents',
  needs: [],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const figures: StepFigures = {};
    const ids: string[][] = [];
    for (const corpus of REAL_CORPORA) {
      const product = await score(ctx, 'product', corpus);
      const baseline = await score(ctx, 'baseline', corpus);
      ids.push(product.ids);
      Object.assign(
        figures,
        figuresOf(`${corpus}Product`, product),
        figuresOf(`${corpus}Baseline`, baseline),
      );
      figures[`${corpus}Questions`] = { value: product.questions, unit: 'count' };
      figures[`${corpus}Intents`] = { value: product.intents, unit: 'count' };
      figures[`${corpus}LongestLabel`] = { value: product.longestLabel, unit: 'count', note: 'characters' };
      ctx.say(
        `bench: ${corpus}: product NMI ${product.nmi.toFixed(3)} purity ${product.purity.toFixed(3)} largest ${(100 * product.largestShare).toFixed(1)} % ${product.clusters} clusters ≤ ${product.maxClustersPerIntent} per intent; baseline (k = ${product.intents}) NMI ${baseline.nmi.toFixed(3)} purity ${baseline.purity.toFixed(3)}`,
      );
    }
    const first = new Set(ids[0]);
    figures['sharedIds'] = { value: (ids[1] ?? []).filter((id) => first.has(id)).length, unit: 'count' };
    return figures;
  },
};
