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

  await page.getByRole('button', { name: 'Copy token' }).click();
  await expect(page.getByText('Copied to clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected.token);

  const docker = page.getByRole('region', { name: 'With Docker' });
  await expect(docker).toContainText(`-e GATEWAY_TOKEN=${expected.token}`);
  await expect(docker).toContainText(`-e GATEWAY_GRPC_URL=${expected.grpc_url}`);
  await expect(docker).toContainText('palisade/gateway');
  await docker.getByRole('button', { name: 'Copy command' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^docker run .*palisade\/gateway:latest$/s);

  const systemd = page.getByRole('region', { name: 'With systemd' });
  await expect(systemd).toContainText('/etc/palisade/gateway.env');
  await expect(systemd).toContainText(`GATEWAY_TOKEN=${expected.token}`);
  await expect(systemd).toContainText('GATEWAY_IFNAME=wg0');
  await expect(systemd).toContainText('systemctl enable --now palisade-gateway.service');

  // The gateways of this location, on demand, on the same page.
  await page.getByRole('button', { name: 'Check gateways' }).click();
  await expect(page.getByRole('region', { name: 'Gateways' }).getByText('None connected')).toBeVisible();
});

test('gateway notifications stay disabled and say that SMTP is needed first', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await navigate(page, 'Settings');
  const card = page.getByRole('region', { name: 'Gateway notifications' });
  await expect(card.getByText('Gateway notifications are sent by email, so they need SMTP.', { exact: false })).toBeVisible();
  await expect(card.getByRole('checkbox', { name: 'Disconnect notifications' })).toBeDisabled();
  await expect(card.getByRole('checkbox', { name: 'Reconnect notifications' })).toBeDisabled();
  await expect(card.getByLabel('Inactivity threshold (minutes)')).toBeDisabled();
  await expect(card.getByRole('button', { name: 'Save' })).toBeDisabled();
});
