import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deliveryEmulator } from './helpers/delivery.js';

const UI_DIR = new URL('../ui/', import.meta.url);

describe('the dashboard over HTTP', () => {
  it('is where a browser opened on the emulator lands: / and /__admin redirect to /__admin/ui', async () => {
    const emu = await deliveryEmulator();
    for (const path of ['/', '/__admin', '/__admin/']) {
      const res = await fetch(`${emu.url}${path}`, { redirect: 'manual' });
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location'), path).toBe('/__admin/ui');
    }
  });

  it('serves the page, its script and its style, allowed to load nothing from elsewhere', async () => {
    const emu = await deliveryEmulator();
    const page = await fetch(`${emu.url}/__admin/ui`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    expect(html).toContain('src="/__admin/ui/dashboard.js"');
    expect(html).toContain('href="/__admin/ui/dashboard.css"');
    const script = await fetch(`${emu.url}/__admin/ui/dashboard.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain('new EventSource(');
    const style = await fetch(`${emu.url}/__admin/ui/dashboard.css`);
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('names no other origin in any of its files: it works offline', () => {
    for (const file of readdirSync(UI_DIR)) {
      // The SVG namespace is a name createElementNS needs, never fetched.
      const text = readFileSync(new URL(file, UI_DIR), 'utf8').replaceAll("'http://www.w3.org/2000/svg'", '');
      expect(text.match(/(https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/gi) ?? [], file).toEqual([]);
      expect(text, file).not.toMatch(/@import|fonts\.|cdn/i);
    }
  });

  it('answers an unknown dashboard file with a problem naming the files it has', async () => {
    const emu = await deliveryEmulator();
    const res = await fetch(`${emu.url}/__admin/ui/secret.txt`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      error: {
        code: 'ui_file_not_found',
        details: { accepted: expect.arrayContaining(['dashboard.js', 'dashboard.css']) },
      },
    });
  });
});
