import { expect, type Page, test } from '@playwright/test';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { connectFakeGateway } from '../support/gateway-stats';
import { uniqueSubnet } from '../support/locations';

async function createLocation(page: Page, name: string): Promise<number> {
  const subnet = uniqueSubnet();
  return page.evaluate(
    async ({ name, gateway }) => {
      const res = await fetch('/api/v1/network', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, address: [gateway], endpoint: 'quiet.example.com', port: 51820 }),
      });
      if (res.status !== 201) throw new Error(`create location: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: number }).id;
    },
    { name, gateway: subnet.gateway },
  );
}

test('the overview lists a location without traffic, with empty charts, in grid and list views and one location', async ({ page }) => {
  const name = `quiet-${uniqueSuffix()}`;
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const id = await createLocation(page, name);

  await navigate(page, 'Overview');
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByRole('heading', { name: 'Location overview', level: 1 })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Network usage of all locations' })).toBeVisible();

  // Grid view: a card per location, each with its own (empty) usage chart.
  const card = page.getByRole('article', { name });
  await expect(card).toBeVisible();
  const chart = card.getByRole('figure', { name: `Network usage of ${name}` });
  await expect(chart.getByText('No traffic in this period', { exact: true })).toBeVisible();
  await expect(card.getByText('Connected users')).toBeVisible();
  await expect(card.getByRole('slider', { name: `Network usage of ${name}` })).toHaveAttribute('aria-valuetext', /in 0 B, out 0 B$/);

  // Period in hours, kept in the URL.
  await page.getByLabel('Time period').selectOption({ label: 'Last 24 hours' });
  await expect(page).toHaveURL(/period=24/);
  await expect(card.getByText('No traffic in this period', { exact: true })).toBeVisible();

  // List view: one row per location with zero activity.
  await page.getByRole('button', { name: 'List' }).click();
  await expect(page).toHaveURL(/view=list/);
  await expect(page.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('0 B');
  await expect(row.getByRole('cell').nth(2)).toHaveText('0');

  // One location: its chart, and nobody connected.
  await row.getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`/overview/${id}\\?`));
  await expect(page.getByRole('heading', { name: `Overview of ${name}`, level: 1 })).toBeVisible();
  await expect(page.getByLabel('Location', { exact: true })).toHaveValue(String(id));
  await expect(
    page.getByRole('figure', { name: `Network usage of ${name}` }).getByText('No traffic in this period', { exact: true }),
  ).toBeVisible();
  await expect(page.getByText('Nobody connected in this period.')).toBeVisible();

  await page.getByLabel('Location', { exact: true }).selectOption({ label: 'All locations' });
  await expect(page).toHaveURL(/\/overview\?/);
  await expect(page.getByRole('heading', { name: 'Location overview', level: 1 })).toBeVisible();
});

test('gateway status is live and coloured: a location without gateways is red "None connected" with nothing pressed', async ({ page }) => {
  const name = `nogw-${uniqueSuffix()}`;
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const id = await createLocation(page, name);

  // One location: the gateway panel checks by itself and says so; the setup link sits with it.
  await page.goto(`/overview/${id}`);
  const panel = page.getByRole('region', { name: 'Gateways' });
  const status = panel.getByTestId('gateways-status').locator('.badge');
  await expect(status).toHaveText('None connected');
  await expect(status).toHaveClass(/badge--error/);
  await expect(panel.getByText('No gateway has connected to this location yet.')).toBeVisible();
  await expect(panel.getByText('The status refreshes every 15 seconds while this page is open.')).toBeVisible();
  await expect(panel.getByRole('button', { name: /Check/ })).toHaveCount(0);
  await expect(panel.getByRole('link', { name: 'Gateway setup instructions' })).toHaveAttribute('href', `/locations/${id}/gateway`);
  await expect(page.getByRole('region', { name: 'Network usage' }).getByRole('link', { name: 'Gateway setup instructions' })).toHaveCount(
    0,
  );

  // All locations, grid: the location's card carries the same red summary.
  await page.goto('/overview');
  const card = page.getByRole('article', { name });
  await expect(card.locator('.location-card__gateways .badge')).toHaveText('None connected');
  await expect(card.locator('.location-card__gateways .badge')).toHaveClass(/badge--error/);

  // List view: the row too.
  await page.goto('/overview?view=list');
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row.locator('.badge')).toHaveText('None connected');
  await expect(row.locator('.badge')).toHaveClass(/badge--error/);
});

test('gateway status follows a gateway connecting and leaving, with nothing pressed', async ({ page }) => {
  test.setTimeout(60_000);
  const name = `livegw-${uniqueSuffix()}`;
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const id = await createLocation(page, name);
  const token = await page.evaluate(
    async (id) => ((await (await fetch(`/api/v1/network/${id}/token`)).json()) as { token: string }).token,
    id,
  );

  await page.goto(`/overview/${id}`);
  const status = page.getByRole('region', { name: 'Gateways' }).getByTestId('gateways-status').locator('.badge');
  await expect(status).toHaveText('None connected');

  const gateway = connectFakeGateway(token);
  try {
    // The next poll (every 15 s) picks the gateway up: green, and listed.
    await expect(status).toHaveText('All connected', { timeout: 20_000 });
    await expect(status).toHaveClass(/badge--success/);
    await expect(page.getByRole('region', { name: 'Gateways' }).getByText('e2e gateway', { exact: true })).toBeVisible();
  } finally {
    gateway.close();
  }
  await expect(status).toHaveText('None connected', { timeout: 20_000 });
  await expect(status).toHaveClass(/badge--error/);
});
