/**
 * The router's trained classifier: kind of work, difficulty 1-5, stakes and a calibrated
 * confidence for a chat request, with a one-sentence reason. Weights are data
 * (data/weights.json), produced by `pnpm --filter @svc/service-router train:router`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ChatMessage, FeatureInput, inputFromMessages, useWordVectors } from './features';
import { Model, WeightsFile, deserializeWeights } from './model';
import { Classification, PredictOptions, predict } from './predict';

export type { Classification, PredictOptions } from './predict';
export { LABEL_TEXT } from './predict';
export type { FeatureInput, ChatMessage } from './features';
export { TASK_TYPES } from './model';
export type { TaskType } from './model';

export interface ClassifyInput {
  system?: string;
  messages: Array<{ role: string; content: string }>;
}

export interface Classifier {
  /** Classifies the last user message of a chat request, with its light context. */
  classify(input: ClassifyInput, options?: PredictOptions): Classification;
  /** Classifies an already-built classifier input (used by evaluation). */
  classifyInput(input: FeatureInput, options?: PredictOptions): Classification;
  /** Training provenance stored with the weights (corpus hash, seed, sizes). */
  readonly meta: Readonly<Record<string, unknown>>;
}

/**
 * A classifier whose answer arrives later (one that asks a model over the network). The router
 * awaits whatever `classify` returns, so the trained Classifier and this one both fit it.
 */
export interface AsyncClassifier {
  /** svc.routing.classifier when this classifier answers itself. */
  readonly id: string;
  classify(input: ClassifyInput): Promise<Classification>;
  readonly meta?: Readonly<Record<string, unknown>>;
}

/**
 * svc.routing.classifier of the trained model: its format, versioned by the weights file it was
 * loaded from (the first 8 hex of its sha256, kept in meta as `weights_sha256` at load), so two
 * models trained differently on one training set never share an id; a model built in memory
 * without that is versioned by the training set it came from.
 */
export function trainedClassifierId(meta: Readonly<Record<string, unknown>> | undefined): string {
  const version = typeof meta?.weights_sha256 === 'string' ? meta.weights_sha256.slice(0, 8) : typeof meta?.corpus_sha256 === 'string' ? meta.corpus_sha256.slice(0, 8) : '';
  return version ? `svc-router-classifier/1@${version}` : 'svc-router-classifier/1';
}

/** services/router/data/weights.json, from both src/classifier and dist/classifier. */
export const DEFAULT_WEIGHTS_PATH = resolve(__dirname, '..', '..', 'data', 'weights.json');

export function classifierFromModel(model: Model): Classifier {
  return {
    classify(input: ClassifyInput, options?: PredictOptions): Classification {
      return predict(model, inputFromMessages(input.system, input.messages as ReadonlyArray<ChatMessage>), options);
    },
    classifyInput(input: FeatureInput, options?: PredictOptions): Classification {
      return predict(model, input, options);
    },
    meta: model.meta,
  };
}

/** Loads the weights file (default: the committed data/weights.json). Throws if it is missing or stale. */
export function loadClassifier(path: string = DEFAULT_WEIGHTS_PATH): Classifier {
  const bytes = readFileSync(path);
  const file = JSON.parse(bytes.toString('utf8')) as WeightsFile;
  const model = deserializeWeights(file);
  model.meta = { ...model.meta, weights_sha256: createHash('sha256').update(bytes).digest('hex') };
  // The word vectors are read now, with the weights, not by the first request.
  useWordVectors();
  return classifierFromModel(model);
}
