import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UsageChart } from './UsageChart';
import type { UsageBucket } from './usage-series';

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const buckets = (values: [number, number][]): UsageBucket[] => values.map(([i, o], k) => ({ start: T0 + k * 60_000, in: i, out: o }));

describe('UsageChart', () => {
  it('is a named figure that says when nothing flowed', () => {
    render(
      <UsageChart
        buckets={buckets([
          [0, 0],
          [0, 0],
          [0, 0],
        ])}
        spanHours={1}
        label="Network usage of HQ"
      />,
    );
    expect(screen.getByRole('figure', { name: 'Network usage of HQ' })).toBeTruthy();
    expect(screen.getAllByText('No traffic in this period').length).toBeGreaterThan(0);
    expect(document.querySelectorAll('.usage-chart__bar--in, .usage-chart__bar--out')).toHaveLength(0);
  });

  it('draws in and out bars, marks the peak, and reads buckets from the keyboard', () => {
    render(
      <UsageChart
        buckets={buckets([
          [1_000, 500],
          [4_000, 2_000],
          [0, 0],
        ])}
        spanHours={1}
        label="Usage"
      />,
    );
    expect(document.querySelectorAll('.usage-chart__bar--in')).toHaveLength(2);
    expect(document.querySelectorAll('.usage-chart__bar--out')).toHaveLength(2);
    expect(document.querySelector('.usage-chart__peak text')?.textContent).toBe('Peak 6 kB');
    expect(screen.queryByText('No traffic in this period')).toBeNull();

    const scrubber = screen.getByRole('slider', { name: 'Usage' });
    // Before any movement the slider sits on the peak.
    expect(scrubber.getAttribute('aria-valuetext')).toMatch(/in 4 kB, out 2 kB$/);
    fireEvent.change(scrubber, { target: { value: '0' } });
    expect(scrubber.getAttribute('aria-valuetext')).toMatch(/in 1 kB, out 500 B$/);
    expect(screen.getByText('In: 1 kB')).toBeTruthy();
    fireEvent.keyDown(scrubber, { key: 'Escape' });
    expect(screen.queryByText('In: 1 kB')).toBeNull();
  });
});

describe('UsageChart time axis', () => {
  it("labels each day of a 168 h period on the user's clock, none skipped", () => {
    const end = Date.UTC(2026, 10, 24, 9, 13);
    const from = end - 168 * 3_600_000;
    const width = 2 * 3_600_000;
    const first = Math.floor(from / width) * width;
    const week = Array.from({ length: 86 }, (_, k) => ({ start: first + k * width, in: 0, out: 0 }));
    render(<UsageChart buckets={week} spanHours={168} label="Week" bucketMs={width} timeZone="Europe/Warsaw" />);
    const labels = [...document.querySelectorAll('.usage-chart__x-axis text')].map((n) => n.textContent);
    expect(labels).toEqual(['Nov 18', 'Nov 19', 'Nov 20', 'Nov 21', 'Nov 22', 'Nov 23', 'Nov 24']);
  });

  it('shows the colour key once', () => {
    render(<UsageChart buckets={buckets([[1, 1]])} spanHours={1} label="Usage" />);
    expect(document.querySelectorAll('.usage-chart__legend')).toHaveLength(1);
    expect(screen.getAllByText('In')).toHaveLength(1);
  });
});
