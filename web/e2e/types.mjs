// The page module's types, checked by the TypeScript compiler (no browser): run by
// crates/ripples-web/tests/e2e.rs after web/build.sh, which leaves wasm-bindgen's
// ripples_web.d.ts in web/dist (the tsconfig's rootDirs let web/*.js see it beside them).
//
//   - `tsc -p web/tsconfig.json`: checkJs over every page module (web/*.js, web/gl/*.js) and
//     their JSDoc types; not strict yet (the older modules are not typed for it);
//   - `tsc -p web/tsconfig.published.json`: web/published-types.ts, strict, holds the published
//     types (web/package/ripples.d.ts) against the code: the same members by name, every
//     member typed in the code (no `any` returned), each method's number of arguments, the
//     code's instance, statics, defaults and error class assignable to the published ones, the
//     options one passes the resolved ones; the test hook
//     (Symbol.for('ripples.simulateSlowDevice')) is the one static left out, and not published;
//   - option-types.mjs: each option's published type against what the code accepts at run time
//     (the wasm module's checkOption, in Node): null, numbers, strings, booleans, and each
//     string literal of a union, both ways.
//
//   node web/e2e/types.mjs      # exit code 0 when all three pass

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkOptionTypes } from './option-types.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, '..');
const tsc = path.join(here, 'node_modules', 'typescript', 'bin', 'tsc');

if (!fs.existsSync(path.join(web, 'dist', 'ripples_web.d.ts'))) {
  console.error('types.mjs: web/dist/ripples_web.d.ts is missing; run web/build.sh first');
  process.exit(1);
}
let failed = 0;
for (const project of ['tsconfig.json', 'tsconfig.published.json']) {
  const started = Date.now();
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(web, project)], { encoding: 'utf8' });
  const ok = result.status === 0;
  console.log(`${ok ? 'ok  ' : 'FAIL'} tsc -p web/${project} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (!ok) {
    failed++;
    console.log(result.stdout, result.stderr);
  }
}
for (const [ok, what] of await checkOptionTypes(path.join(web, 'package', 'ripples.d.ts'), path.join(web, 'dist'))) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failed++;
}
process.exit(failed ? 1 : 0);
