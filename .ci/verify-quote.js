#!/usr/bin/env node
/**
 * The part of a `triton-ops verify` report that docs/ci.md quotes (test/docs/verify-report.txt): the lines that say the
 * same on every run, with the times and the metric readings (which depend on when Prometheus scraped) masked.
 * Usage: node .ci/verify-quote.js <verify stdout> [command shown]
 */
const fs = require('fs');
const [file, command = 'npx triton-ops verify dist/ml-serving cdktf.out/stacks/infra'] = process.argv.slice(2);
const kept = fs.readFileSync(file, 'utf8').split('\n').filter((l) => /^(triton-ops verify|control plane up|\w+:( \d+ passed|$)|  (ok  |FAIL|skip) (node pool|HorizontalPodAutoscaler|DaemonSet)[^:]*: )/.test(l))
  .map((l) => l.replace(/ in [\d.]+ s\b/, ' in N s').replace(/up in [\d.]+ s/, 'up in N s').replace(/ = [\d.]+m? \(target/g, ' = N (target'));
process.stdout.write(`$ ${command}\n${kept.join('\n')}\n`);
