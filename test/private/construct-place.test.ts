import { Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { addProblemValidation, DESCRIBES_PARTS, placeOf } from '../../lib/private/construct-place';
import { DescribedPlace, problem, Problems, problemsOf, warningAt } from '../../lib/private/errors';

/** A chart made from a description: it names the part of each construct below it by the ids it is given. */
class DescribedChart extends Chart {
  public readonly asked: string[][] = [];
  public [DESCRIBES_PARTS](ids: readonly string[]): DescribedPlace | undefined {
    this.asked.push([...ids]);
    if (ids[0] !== 'bert') return undefined;
    return { owner: 'vision', at: 'servers.bert', prop: (prop) => (prop === 'nodeGroup' ? 'servers.bert.nodePool' : `servers.bert.${prop}`) };
  }
}

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('placeOf: where a construct raises its problems', () => {
  test('outside a described scope, the construct path', () => {
    const chart = new Chart(Testing.app(), 'plain');
    expect(placeOf(new Construct(new Construct(chart, 'bert'), 'Autoscaler'))).toBe('plain/bert/Autoscaler');
  });

  test('below a described scope, the part the scope names for the ids below it', () => {
    const chart = new DescribedChart(Testing.app(), 'vision-chart');
    const place = placeOf(new Construct(new Construct(chart, 'bert'), 'Autoscaler'));
    expect(chart.asked).toEqual([['bert', 'Autoscaler']]);
    const p = new Problems(place);
    p.check(false, 'nodeGroup', 'gpu', 'is not a node pool', 'name one');
    p.check(false, 'gpus', -1, 'must be >= 0', 'use 0 for a CPU server');
    expect(p.problems).toEqual([
      "vision: 'servers.bert.nodePool' ('gpu') is not a node pool; name one",
      "vision: 'servers.bert.gpus' (-1) must be >= 0; use 0 for a CPU server",
    ]);
    expect(warningAt(place, 'gpus', 2, 'idles one GPU')).toBe("vision: warning: 'servers.bert.gpus' (2) idles one GPU");
  });

  test('a part the scope does not describe keeps its construct path', () => {
    const chart = new DescribedChart(Testing.app(), 'vision-chart');
    expect(placeOf(new Construct(chart, 'Dashboard'))).toBe('vision-chart/Dashboard');
  });

  test('with a child id, the place of a child not made yet (a factory checks its input first)', () => {
    const chart = new DescribedChart(Testing.app(), 'vision-chart');
    expect(problem(placeOf(chart, 'bert'), 'gpus', -1, 'must be >= 0', 'fix it')).toBe("vision: 'servers.bert.gpus' (-1) must be >= 0; fix it");
    expect(placeOf(new Construct(chart, 'other'), 'Child')).toBe('vision-chart/other/Child');
  });
});

describe('problemsOf a cdk8s validation failure', () => {
  test('a line of addProblemValidation comes back as raised; any other line gets its construct path', () => {
    const app = Testing.app();
    const chart = new DescribedChart(app, 'vision-chart');
    const bert = new Construct(chart, 'bert');
    addProblemValidation(bert, () => [problem(placeOf(bert), 'gpus', 3, 'is more than the node has', 'lower it')]);
    bert.node.addValidation({ validate: () => ['a check of another library'] });
    expect(problemsOf(errorOf(() => app.synth()))).toEqual([
      "vision: 'servers.bert.gpus' (3) is more than the node has; lower it",
      'vision-chart/bert: a check of another library',
    ]);
  });
});
