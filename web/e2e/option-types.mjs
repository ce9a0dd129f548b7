// The published option types (RipplesResolvedOptions in web/package/ripples.d.ts) against what
// the code accepts: the wasm module's checkOption, which attach and set() call for every option
// (web/options.js). For each option, each kind of value the published type names (null, a
// number, a string or each of its string literals, a boolean) must be accepted, and each kind
// it does not name refused; a refused string's message must list exactly the published
// literals. Run by types.mjs, in Node (no browser), over web/dist (web/build.sh makes it).
//
//   node web/e2e/option-types.mjs      # exit code 0 when every option agrees

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** waterColour is read as CSS by the page (images.js's cssColour) before checkOption sees it. */
const CONVERTED_BY_THE_PAGE = ['waterColour'];

/** The kinds of value each option of `interfaceName` in the .d.ts at `file` takes. */
export function publishedKinds(file, interfaceName) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found = source.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === interfaceName);
  if (!found) throw new Error(`${file} has no interface ${interfaceName}`);
  const kinds = {};
  for (const member of found.members) {
    if (!ts.isPropertySignature(member) || !member.type) continue;
    const types = ts.isUnionTypeNode(member.type) ? member.type.types : [member.type];
    const kind = { null: false, number: false, string: false, boolean: false, literals: [], other: [] };
    for (const type of types) {
      if (type.kind === ts.SyntaxKind.NumberKeyword) kind.number = true;
      else if (type.kind === ts.SyntaxKind.StringKeyword) kind.string = true;
      else if (type.kind === ts.SyntaxKind.BooleanKeyword) kind.boolean = true;
      else if (ts.isLiteralTypeNode(type) && type.literal.kind === ts.SyntaxKind.NullKeyword) kind.null = true;
      else if (ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal)) kind.literals.push(type.literal.text);
      else kind.other.push(type.getText(source));
    }
    kinds[member.name.getText(source)] = kind;
  }
  return kinds;
}

/** Whether checkOption(name, value) accepts value, and its message when it does not. */
function accepts(checkOption, name, value) {
  try {
    checkOption(name, value);
    return { ok: true };
  } catch (error) {
    return { ok: false, message: String(error?.message ?? error) };
  }
}

/** The checks, as `[ok, what]` pairs, of the .d.ts at `dts` against the module in `dist`. */
export async function checkOptionTypes(dts, dist) {
  const glue = await import(pathToFileURL(path.join(dist, 'ripples_web.js')).href);
  glue.initSync({ module: fs.readFileSync(path.join(dist, 'ripples_web_bg.wasm')) });
  const { DEFAULTS } = await import(pathToFileURL(path.join(dist, 'options.js')).href);
  const kinds = publishedKinds(dts, 'RipplesResolvedOptions');
  const results = [];
  for (const [name, kind] of Object.entries(kinds)) {
    if (CONVERTED_BY_THE_PAGE.includes(name)) continue;
    const wrong = [];
    const expect = (value, wanted, label) => {
      const got = accepts(glue.checkOption, name, value);
      if (got.ok !== wanted) wrong.push(`${label} ${got.ok ? 'accepted' : `refused (${got.message})`}, the types say ${wanted ? 'accepted' : 'refused'}`);
      return got;
    };
    if (kind.other.length) wrong.push(`a type this check does not know: ${kind.other.join(' | ')}`);
    expect(null, kind.null, 'null');
    expect(typeof DEFAULTS[name] === 'number' ? DEFAULTS[name] : 1, kind.number, 'a number');
    expect(true, kind.boolean, 'true');
    if (kind.string) expect('probe.png', true, 'a string');
    for (const literal of kind.literals) expect(literal, true, `'${literal}'`);
    if (!kind.string) {
      const refused = expect('not-a-value', false, "'not-a-value'");
      if (kind.literals.length && !refused.ok) {
        // "solver must be 'classic', 'wave', 'spring' or 'dispersive', got 'not-a-value'"
        const named = [...refused.message.split(', got ')[0].matchAll(/'([^']*)'/g)].map((m) => m[1]).sort();
        const published = [...kind.literals].sort();
        if (named.join() !== published.join()) wrong.push(`the code names ${named.join(', ')}; the types ${published.join(', ')}`);
      }
    }
    results.push([wrong.length === 0, `option ${name}: ${wrong.length ? wrong.join('; ') : 'the published type is what the code accepts'}`]);
  }
  const unknown = Object.keys(DEFAULTS).filter((name) => !(name in kinds));
  results.push([unknown.length === 0 && results.length >= 25, `every option of the code is in RipplesResolvedOptions (${results.length} checked${unknown.length ? `; missing: ${unknown.join(', ')}` : ''})`]);
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const web = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const results = await checkOptionTypes(path.join(web, 'package', 'ripples.d.ts'), path.join(web, 'dist'));
  for (const [ok, what] of results) console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  process.exit(results.every(([ok]) => ok) ? 0 : 1);
}
