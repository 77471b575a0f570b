// extract.js prints, as JSON, the JSON schema with the given $id that a file
// embeds as text (see README.md):
// node extract.js action_validator_bg.wasm https://json.schemastore.org/github-action.json
const fs = require('fs');
const [file, id] = process.argv.slice(2);
const src = fs.readFileSync(file).toString('latin1');
const at = src.indexOf('"$id": "' + id + '"');
if (at < 0) throw new Error('no schema with $id ' + id);
let start = src.lastIndexOf('{', at);
let depth = 0, q = false, j = start;
for (; j < src.length; j++) {
  const c = src[j];
  if (q) { if (c === '\\') j++; else if (c === '"') q = false; continue; }
  if (c === '"') q = true;
  else if (c === '{') depth++;
  else if (c === '}') { depth--; if (depth === 0) break; }
}
const text = Buffer.from(src.slice(start, j + 1), 'latin1').toString('utf8');
process.stdout.write(JSON.stringify(JSON.parse(text), null, 2) + '\n');
