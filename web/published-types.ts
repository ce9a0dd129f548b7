// The published types (package/ripples.d.ts, hand-written for the npm package) checked against
// the code they describe (ripples.js and its modules, typed by their JSDoc): run by
// `tsc -p tsconfig.published.json` (see web/e2e/types.mjs), strict, so that a member added,
// removed or retyped on one side and not the other fails the test suite. Nothing here runs.

import { Ripples as Code, RipplesLoadError as CodeLoadError } from './ripples.js';
import { DEFAULTS } from './options.js';
import { SIMULATE_SLOW_DEVICE } from './quality.js';
import type {
  Ripples as Published,
  RipplesLoadError as PublishedLoadError,
  RipplesOptions,
  RipplesResolvedOptions,
} from './package/ripples.js';

/** Whether A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function same<T extends true>(): T | void {}

// The same members, by name: every method, getter and static of the class (less the test
// hook, which stays out of the published types), and every option.
same<Equal<keyof Code, keyof Published>>();
same<Equal<Exclude<keyof typeof Code, 'prototype' | typeof SIMULATE_SLOW_DEVICE>, Exclude<keyof typeof Published, 'prototype'>>>();
same<Equal<keyof typeof DEFAULTS, keyof RipplesResolvedOptions>>();
same<Equal<keyof typeof DEFAULTS, Exclude<keyof RipplesOptions, 'waterColor'>>>();

// The code's members fit the published types: an instance, the statics, the error class.
declare const code: Code;
export const instance: Published = code;
export const statics: Omit<typeof Published, 'prototype'> = Code;
declare const loadError: CodeLoadError;
export const error: PublishedLoadError = loadError;
