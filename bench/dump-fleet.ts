/**
 * Preparation (untimed): `node build/bench/dump-fleet.js N FILE` writes the fleet's documents as one JSON
 * array, exactly as cdk8s hands them to its YAML writer. The floor process reads this file, so the floor
 * pays for no construct work at all.
 */
import { writeFileSync } from 'fs';
import { buildFleet, parseArgs } from './fleet';

const { n, paths: [file] } = parseArgs('dump-fleet.js <servers> <file.json>', 1);
const app = buildFleet(n, '.');
// Chart.toJson() is the call App.synth() makes per chart before Yaml.save; nothing is written to '.'.
const docs: unknown[] = app.charts.flatMap((chart) => chart.toJson());
writeFileSync(file!, JSON.stringify(docs));
