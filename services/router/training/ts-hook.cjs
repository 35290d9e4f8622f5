// Lets the plain-Node scripts require the classifier's TypeScript sources directly, compiled
// on the fly with the workspace's @swc/core (the same compiler jest uses), so training,
// benchmarking and serving share one implementation without a build step.
const fs = require('node:fs');
const Module = require('node:module');
const swc = require('@swc/core');

const options = {
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

Module._extensions['.ts'] = function compileTs(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = swc.transformSync(source, { ...options, filename });
  module._compile(code, filename);
};
