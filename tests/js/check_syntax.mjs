// Parses (never runs) each JavaScript listing given on stdin as a JSON array
// of { name, code }, with V8's own parser. Prints each syntax error and exits
// 1 if there is any.
import vm from 'node:vm';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const listings = JSON.parse(input);
const errors = [];
for (const { name, code } of listings) {
  try {
    new vm.Script(code, { filename: name });
  } catch (error) {
    errors.push(`${name}: ${error.message}\n${code}`);
  }
}
for (const error of errors) console.log(error);
console.log(`${listings.length} listings parsed, ${errors.length} with syntax errors`);
process.exit(errors.length ? 1 : 0);
