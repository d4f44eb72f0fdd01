import { launchBrowser } from './e2e/support/browser.ts';
const browser = await launchBrowser();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR' });
const page = await context.newPage();
await page.goto('http://127.0.0.1:4000/demo/checkout.html');
const i = page.locator('shipping-calculator input').first(); await i.fill('20040-020'); await i.press('Enter');
await page.waitForTimeout(2500);
await page.screenshot({ path: '/tmp/myshots/checkout2.png' });
await browser.close();
