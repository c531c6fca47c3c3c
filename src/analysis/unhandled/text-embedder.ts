// Where the texts' vectors come from: by default the LSA of the period's own TF-IDF (fit-lsa.ts, no model, no
// network); optionally an embeddings endpoint (REPORTER_EMBEDDINGS_URL: the command hands its client in as a
// TextEmbedder). Either way the vectors are made unit length and the same graph method clusters them; only
// masked texts are ever sent.
import { type Lsa, projectTextRow } from './fit-lsa.js';
import type { TextRow } from './fit-vectoriser.js';

/** Vectors of masked texts from outside the process: one vector per text, all of the same length. */
export interface TextEmbedder {
  /** What the vectors are, for the run's record (e.g. `embeddings:nomic-embed-text`). */
  readonly name: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** The vectors the clustering works on, for a batch of texts and their TF-IDF rows. */
export interface VectorSpace {
  readonly name: string;
  readonly dims: number;
  /** Unit vectors (texts × dims); a text without one is all zeros. */
  vectors(texts: readonly string[], rows: readonly (TextRow | undefined)[]): Promise<Float32Array>;
}

/** The LSA of the sample as the space: a text's vector is its TF-IDF row projected. */
export function lsaSpace(lsa: Lsa): VectorSpace {
  const buffer = new Float64Array(lsa.dims);
  return {
    name: 'lsa',
    dims: lsa.dims,
    async vectors(texts, rows) {
      const out = new Float32Array(texts.length * lsa.dims);
      for (const [i, row] of rows.entries())
        if (row !== undefined && projectTextRow(lsa, row, buffer)) out.set(buffer, i * lsa.dims);
      return out;
    },
  };
}

/** An embedder as the space: its vectors of the texts, unit length. `dims` is learnt from its first answer. */
export async function embedderSpace(embedder: TextEmbedder, probe: readonly string[]): Promise<VectorSpace> {
  const first = await embedder.embed(probe.slice(0, 1));
  const dims = first[0]?.length ?? 0;
  if (dims === 0) throw new RangeError(`${embedder.name}: an empty vector for a text`);
  return {
    name: embedder.name,
    dims,
    async vectors(texts) {
      const out = new Float32Array(texts.length * dims);
      const got = texts.length === 0 ? [] : await embedder.embed(texts);
      if (got.length !== texts.length)
        throw new RangeError(`${embedder.name}: ${got.length} vectors for ${texts.length} texts`);
      for (const [i, v] of got.entries()) {
        if (v.length !== dims)
          throw new RangeError(`${embedder.name}: a vector of ${v.length} numbers, not ${dims}`);
        let norm = 0;
        for (const x of v) norm += x * x;
        if (norm > 0) for (let t = 0; t < dims; t++) out[i * dims + t] = v[t]! / Math.sqrt(norm);
      }
      return out;
    },
  };
}
