// npm run with a script that exists, then one that does not (`npm error Missing script: "nosuchscript"`, exit 1).
export default {
  name: 'shell-fail-npm-script',
  scenario: 'bash without shell integration: `npm run build` (exit 0), then `npm run nosuchscript` (npm error Missing script, exit 1)',
  setup: [`printf '{\\n  "name": "demo",\\n  "version": "1.0.0",\\n  "scripts": { "build": "echo bundling && sleep 1 && echo built dist/app.js" }\\n}\\n' > package.json`],
  steps: [
    { wait: 2 },
    { type: 'npm run build', enter: true },
    { wait: 'command_end' },
    { wait: 3 },
    { type: 'npm run nosuchscript', enter: true },
    { wait: 'command_end' },
  ],
  tail: 4,
};
