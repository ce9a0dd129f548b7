// The published types (package/ripples.d.ts, hand-written for the npm package) checked against
// the code they describe (ripples.js and its modules, typed by their JSDoc): run by
// `tsc -p tsconfig.published.json` (see web/e2e/types.mjs), strict, so that a member added,
// removed or retyped on one side and not the other fails the test suite. Nothing here runs.
//
// What the type checker cannot see is checked where it can be: the options' values are checked
// at run time by the wasm module (checkOption), so web/e2e/option-types.mjs holds each option's
// published type against what checkOption accepts and refuses; here the defaults must fit the
// published options, and every member must be typed in the code (no `any` in what it returns),
// so that the assignments below compare types, not names.

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

// The test hook is not published (and the equality of the statics above would fail if it were).
same<Equal<typeof SIMULATE_SLOW_DEVICE extends keyof typeof Published ? true : false, false>>();

// The defaults fit the published options, value by value; the options one passes are the
// resolved ones, optional (less waterColor, the other spelling, and waterColour, which also
// takes [r, g, b]).
export const defaults: RipplesResolvedOptions = DEFAULTS;
type Passed = Required<Omit<RipplesOptions, 'waterColor' | 'waterColour'>>;
same<Equal<{ [K in keyof Passed]: Exclude<Passed[K], undefined> }, Omit<RipplesResolvedOptions, 'waterColour'>>>();

/** Whether T is `any`. */
type IsAny<T> = 0 extends 1 & T ? true : false;
/** The members of T whose value, or return value, is `any`: such a member fits any published type. */
type Untyped<T> = {
  [K in keyof T]: T[K] extends (...args: never[]) => infer R ? (IsAny<R> extends true ? K : never) : IsAny<T[K]> extends true ? K : never;
}[keyof T];
same<Equal<Untyped<Code>, never>>();
same<Equal<Untyped<typeof Code>, never>>();

// Each method takes as many arguments as its published signature: a parameter added or dropped
// on one side fails. (A JSDoc-less parameter is optional to the checker: the code types them.)
// The overloaded ones take what each of their published signatures takes: set(changes) and
// set(name, value); init(), init({ wasm }) and init(wasm).
type Arity<F> = F extends (...args: infer P) => unknown ? P['length'] : never;
type Methods<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T];
type Overloaded = 'set' | 'init';
type Arities<T> = { [K in Exclude<Methods<T>, Overloaded>]: Arity<T[K]> };
same<Equal<Arities<Code>, Arities<Published>>>();
same<Equal<Arities<Omit<typeof Code, typeof SIMULATE_SLOW_DEVICE>>, Arities<typeof Published>>>();
same<Equal<Arity<Code['set']>, 1 | 2>>();
same<Equal<Arity<(typeof Code)['init']>, 0 | 1>>();
