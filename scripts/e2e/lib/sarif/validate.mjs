// Validates SARIF logs against the SARIF 2.1.0 JSON schema with Ajv.
// Usage: node validate.mjs SCHEMA FILE...   (exit 1 if any file is invalid)
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { readFileSync } from "node:fs";

const [schemaPath, ...files] = process.argv.slice(2);
if (!schemaPath || files.length === 0) {
  console.error("usage: node validate.mjs SCHEMA FILE...");
  process.exit(2);
}
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, "utf8")));
let bad = 0;
for (const f of files) {
  let log;
  try {
    log = JSON.parse(readFileSync(f, "utf8"));
  } catch (e) {
    bad++;
    console.log(`${f}: not JSON: ${e.message}`);
    continue;
  }
  if (validate(log)) {
    const results = (log.runs || []).reduce((n, r) => n + (r.results || []).length, 0);
    console.log(`${f}: valid SARIF 2.1.0 (${results} results)`);
  } else {
    bad++;
    for (const e of validate.errors) {
      console.log(`${f}: ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
    }
  }
}
process.exit(bad ? 1 : 0);
