// Renders every case of cases.json with @huggingface/jinja (the Hub loader's engine) and writes
// the golden file the C++ renderer is tested against:
//   npm ci && node render-golden.mjs > ../../tests/data/jinja_golden.json
import { readFileSync } from "node:fs";
import { Template } from "@huggingface/jinja";

const cases = JSON.parse(readFileSync(new URL("./cases.json", import.meta.url), "utf8"));
const out = cases.map((c) => {
  try {
    return { ...c, output: new Template(c.template).render(c.context) };
  } catch (e) {
    return { ...c, error: String(e.message) };
  }
});
process.stdout.write(JSON.stringify({ engine: "@huggingface/jinja@0.5.11", cases: out }, null, 1) + "\n");
