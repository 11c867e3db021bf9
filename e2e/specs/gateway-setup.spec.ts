import { expect, test } from '@playwright/test';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { uniqueSubnet } from '../support/locations';

test('gateway setup shows the location token with copy, the gRPC URL and the agent commands', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const name = `gw-${uniqueSuffix()}`;
  const subnet = uniqueSubnet();
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const id = await page.evaluate(
    async ({ name, gateway }) => {
      const res = await fetch('/api/v1/network', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, address: [gateway], endpoint: 'gw.example.com', port: 51820 }),
      });
      return ((await res.json()) as { id: number }).id;
    },
    { name, gateway: subnet.gateway },
  );

  await navigate(page, 'Locations');
  await page.getByRole('link', { name, exact: true }).click();
  await page.getByRole('link', { name: 'Gateway setup instructions' }).click();
  await expect(page).toHaveURL(new RegExp(`/locations/${id}/gateway$`));
  await expect(page.getByRole('heading', { name: `Gateway setup for ${name}`, level: 1 })).toBeVisible();

  const token = page.getByTestId('gateway-token');
  await expect(token).not.toBeEmpty();
  const expected = await page.evaluate(async (id) => {
    const res = await fetch(`/api/v1/network/${id}/token`);
    return { status: res.status, ...((await res.json()) as { token: string; grpc_url: string }) };
  }, id);
  expect(expected.status).toBe(200);
  await expect(token).toHaveText(expected.token);
  expect(expected.token.length).toBeGreaterThan(16);
  await expect(page.getByText(expected.grpc_url, { exact: true })).toBeVisible();
  // The test server has no PUBLIC_URL and is browsed on 127.0.0.1: the URL is loopback, and the page says which setting fixes it.
  expect(expected).toMatchObject({ grpc_url_source: 'request', grpc_url_is_loopback: true });
  const notice = page.getByTestId('grpc-url-notice');
  await expect(notice).toHaveClass(/banner--warning/);
  await expect(notice).toContainText('Gateways on other hosts cannot reach this address');
  await expect(notice).toContainText('Set PUBLIC_URL');
  await expect(notice).toContainText('GRPC_PUBLIC_URL');

  await page.getByRole('button', { name: 'Copy token' }).click();
  await expect(page.getByText('Copied to clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected.token);

  // Where the agent comes from: this repository, built here; nothing is pulled from a registry.
  await expect(page.getByText('no ready-made image or package is published', { exact: false })).toBeVisible();
  const docker = page.getByRole('region', { name: 'With Docker' });
  const build = docker.getByRole('region', { name: '1. Build the image' });
  await expect(build).toContainText('docker build -f docker/gateway.Dockerfile -t palisade/gateway:latest .');
  const run = docker.getByRole('region', { name: '2. Start the container' });
  await expect(run).toContainText(`-e GATEWAY_TOKEN=${expected.token}`);
  await expect(run).toContainText(`-e GATEWAY_GRPC_URL=${expected.grpc_url}`);
  await run.getByRole('button', { name: 'Copy commands' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^docker run .*palisade\/gateway:latest$/s);

  const systemd = page.getByRole('region', { name: 'With systemd' });
  const install = systemd.getByRole('region', { name: '1. Install the agent' });
  await expect(install).toContainText('pnpm --filter @palisade/gateway deploy --prod --legacy');
  await expect(install).toContainText('docker/palisade-gateway.service /etc/systemd/system/');
  const start = systemd.getByRole('region', { name: '2. Configure and start' });
  await expect(start).toContainText('/etc/palisade/gateway.env');
  await expect(start).toContainText(`GATEWAY_TOKEN=${expected.token}`);
  await expect(start).toContainText('GATEWAY_IFNAME=wg0');
  await expect(start).toContainText('systemctl enable --now palisade-gateway.service');

  // The gateways of this location, live on the same page: none yet, in red, and it says it is waiting.
  const panel = page.getByRole('region', { name: 'Gateways' });
  await expect(panel.getByTestId('gateways-status')).toHaveText('None connected');
  await expect(panel.getByText('This list updates by itself', { exact: false })).toBeVisible();
});

test('gateway notifications need SMTP first, then save like every settings tab', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await navigate(page, 'Settings');
  await page.getByRole('link', { name: 'Gateway notifications' }).click();
  await expect(page).toHaveURL(/tab=notifications/);
  const form = page.getByRole('form', { name: 'Gateway notifications' });
  await expect(form.getByText('Gateway notifications are sent by email, so they need SMTP.', { exact: false })).toBeVisible();
  await expect(form.getByRole('checkbox', { name: 'Disconnect notifications' })).toBeDisabled();
  await expect(form.getByRole('checkbox', { name: 'Reconnect notifications' })).toBeDisabled();
  await expect(form.getByLabel('Inactivity threshold (minutes)')).toBeDisabled();
  await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
  await form.getByRole('link', { name: 'Configure SMTP' }).click();
  await expect(page).toHaveURL(/tab=smtp/);

  const api = page.context().request;
  const smtp = { smtp_server: 'smtp.example.com', smtp_port: 587, smtp_sender: 'vpn@example.com' };
  expect((await api.patch('/api/v1/settings', { data: smtp })).status()).toBe(200);
  try {
    await page.goto('/settings?tab=notifications');
    await expect(form.getByText('SMTP is not configured yet', { exact: false })).toHaveCount(0);
    await form.getByRole('checkbox', { name: 'Disconnect notifications' }).check();
    const threshold = form.getByLabel('Inactivity threshold (minutes)');
    await threshold.fill('0');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(threshold).toHaveAttribute('aria-invalid', 'true');
    await threshold.fill('15');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();

    await page.reload();
    await expect(form.getByRole('checkbox', { name: 'Disconnect notifications' })).toBeChecked();
    await expect(form.getByLabel('Inactivity threshold (minutes)')).toHaveValue('15');
    await expect(form.getByRole('checkbox', { name: 'Reconnect notifications' })).not.toBeChecked();
  } finally {
    const restore = await api.patch('/api/v1/settings', {
      data: { gateway_disconnect_notifications_enabled: false, gateway_inactivity_threshold: 5, smtp_server: '', smtp_sender: '' },
    });
    expect(restore.status()).toBe(200);
  }
});
