// The paths report's flow chart: the moves between positions of the paths drawn as an ECharts Sankey on the
// server (SVG), each node labelled with its state and sessions, a move to a state the chart does not draw
// left out (so no link hangs loose), and a state that comes back at a later position drawn again there (no
// cycle, which a Sankey cannot draw).
import { describe, expect, it } from 'vitest';
import { pathsChart } from '../../reports/paths/report.js';
import { renderChartSvg } from '../../src/report/render-chart-svg.js';

describe('the paths flow chart', () => {
  const nodes = [
    { step: 1, state: '/Start', sessions: 90, ended: 10 },
    { step: 1, state: '/Greeting', sessions: 40, ended: 5 },
    { step: 2, state: '/Greeting', sessions: 60, ended: 20 },
    { step: 2, state: '/Hours', sessions: 30, ended: 30 },
    { step: 3, state: '/Start', sessions: 25, ended: 25 },
  ];
  const links = [
    { step: 1, from: '/Start', to: '/Greeting', sessions: 60 },
    { step: 1, from: '/Greeting', to: '/Hours', sessions: 30 },
    { step: 2, from: '/Greeting', to: '/Start', sessions: 25 },
    // its target is not among the nodes drawn: left out
    { step: 2, from: '/Hours', to: '/Refund', sessions: 3 },
  ];

  it('keeps the moves between drawn nodes, a state at each position its own node', () => {
    const [chart] = pathsChart(nodes, links);
    expect(chart!.kind).toBe('sankey');
    expect(chart!.flow!.links).toEqual([
      { from: '1|/Start', to: '2|/Greeting', value: 60 },
      { from: '1|/Greeting', to: '2|/Hours', value: 30 },
      { from: '2|/Greeting', to: '3|/Start', value: 25 },
    ]);
    expect(chart!.title).toBe("The paths' first 3 steps: the top 3 moves (sessions)");
    expect(pathsChart(nodes, [])).toEqual([]);
  });

  it('renders as SVG with every node named by its state and its sessions', async () => {
    const svg = await renderChartSvg(pathsChart(nodes, links)[0]!);
    expect(svg).toMatch(/^<svg role="img" aria-label="The paths/);
    for (const label of ['/Start 90', '/Greeting 40', '/Greeting 60', '/Hours 30', '/Start 25'])
      expect(svg).toContain(label);
    expect(svg).not.toContain('/Refund');
    // one curved band per link
    expect(svg.match(/<path d="M[^"]*C/g)?.length).toBeGreaterThanOrEqual(3);
  });
});
