// extract.js prints, as JSON, the SARIF 2.1.0 schema that the npm package
// @datadog/datadog-ci-plugin-sarif embeds in dist/bundle.js (see README.md):
// node extract.js package/dist/bundle.js > sarif-schema-2.1.0.json
const fs = require('fs');
const src = fs.readFileSync(process.argv[2], 'utf8');
const marker = 'var sarif_schema_2_1_0_default = ';
let i = src.indexOf(marker);
if (i < 0) throw new Error('marker not found');
i += marker.length;
let depth = 0, j = i, q = null;
for (; j < src.length; j++) {
  const c = src[j];
  if (q) { if (c === '\\') j++; else if (c === q) q = null; continue; }
  if (c === '"' || c === "'" || c === '`') q = c;
  else if (c === '{' || c === '[') depth++;
  else if (c === '}' || c === ']') { depth--; if (depth === 0) break; }
}
const obj = new Function('return ' + src.slice(i, j + 1))();
process.stdout.write(JSON.stringify(obj, null, 2) + '\n');
