import { writeFile } from 'node:fs/promises';
import type { DevtoolsConnection } from './devtools-connection.ts';

/** What a page showed when it was opened. */
export interface PageVisit {
  readonly url: string;
  /** HTTP errors and failed loads of the page or its assets, console errors, uncaught errors. */
  readonly problems: readonly string[];
  /** Every `<a href>`, resolved against the page. */
  readonly links: readonly string[];
  /** The ids of the page's elements, which a link's #fragment must name. */
  readonly ids: ReadonlySet<string>;
  /** The text the page shows. */
  readonly text: string;
}

type Params = Record<string, unknown>;

const LOAD_TIMEOUT_MS = 30_000;

/** The text of a console call's arguments, as the console prints them. */
function consoleText(params: Params): string {
  const args = (params.args ?? []) as { value?: unknown; description?: string }[];
  return args.map((arg) => arg.description ?? String(arg.value)).join(' ');
}

function exceptionText(params: Params): string {
  const details = params.exceptionDetails as { text: string; exception?: { description?: string } };
  return details.exception?.description ?? details.text;
}

/**
 * One browser tab that opens pages one after another and records, for each, what went wrong while
 * it loaded; the DevTools events of other tabs are ignored by session.
 */
export class BrowserTab {
  private problems: string[] = [];
  private readonly requestUrls = new Map<string, string>();
  private readonly lifecycle: { loaderId: string; name: string }[] = [];

  private readonly devtools: DevtoolsConnection;
  private readonly sessionId: string;

  private constructor(devtools: DevtoolsConnection, sessionId: string) {
    this.devtools = devtools;
    this.sessionId = sessionId;
  }

  static async open(devtools: DevtoolsConnection): Promise<BrowserTab> {
    const { targetId } = await devtools.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await devtools.send('Target.attachToTarget', { targetId, flatten: true });
    const tab = new BrowserTab(devtools, sessionId as string);
    tab.listen();
    for (const domain of ['Page', 'Runtime', 'Log', 'Network']) await tab.send(`${domain}.enable`);
    await tab.send('Page.setLifecycleEventsEnabled', { enabled: true });
    return tab;
  }

  /** Opens url and waits until its network is idle (the page hydrated and fetched what it needs). */
  async visit(url: string): Promise<PageVisit> {
    this.problems = [];
    const navigation: Params = await this.send('Page.navigate', { url });
    if (typeof navigation.errorText === 'string') this.problems.push(`${navigation.errorText}: ${url}`);
    else await this.networkIdle(navigation.loaderId as string, url);
    const links = (await this.evaluate(
      "[...document.querySelectorAll('a[href]')].map((a) => a.href)",
    )) as string[];
    const ids = (await this.evaluate("[...document.querySelectorAll('[id]')].map((e) => e.id)")) as string[];
    const text = (await this.evaluate('document.body.innerText')) as string;
    return { url, problems: this.problems, links, ids: new Set<string>(ids), text };
  }

  async screenshot(file: string): Promise<void> {
    const { data } = await this.send('Page.captureScreenshot', { format: 'png' });
    await writeFile(file, Buffer.from(data as string, 'base64'));
  }

  private send(method: string, params: Params = {}): Promise<Params> {
    return this.devtools.send(method, params, this.sessionId);
  }

  private async evaluate(expression: string): Promise<unknown> {
    const { result } = await this.send('Runtime.evaluate', { expression, returnByValue: true });
    return (result as { value: unknown }).value;
  }

  /** Calls handle with the params of this tab's events named method. */
  private onEvent(method: string, handle: (params: Params) => void): void {
    this.devtools.on(method, (params: Params, sessionId: string | undefined): void => {
      if (sessionId === this.sessionId) handle(params);
    });
  }

  private listen(): void {
    this.onEvent('Network.requestWillBeSent', (p) => {
      this.requestUrls.set(p.requestId as string, (p.request as { url: string }).url);
    });
    this.onEvent('Network.responseReceived', (p) => {
      const response = p.response as { status: number; url: string };
      if (response.status >= 400) this.problems.push(`HTTP ${response.status}: ${response.url}`);
    });
    this.onEvent('Network.loadingFailed', (p) => {
      // A request the page itself cancelled (a prefetch cut short by the next navigation) is no error.
      if (p.canceled === true) return;
      this.problems.push(`${String(p.errorText)}: ${this.requestUrls.get(p.requestId as string) ?? '?'}`);
    });
    this.onEvent('Runtime.consoleAPICalled', (p) => {
      if (p.type === 'error') this.problems.push(`console error: ${consoleText(p)}`);
    });
    this.onEvent('Runtime.exceptionThrown', (p) => this.problems.push(`uncaught: ${exceptionText(p)}`));
    this.onEvent('Log.entryAdded', (p) => {
      const entry = p.entry as { level: string; text: string; url?: string };
      if (entry.level === 'error')
        this.problems.push(`console error: ${entry.text} ${entry.url ?? ''}`.trim());
    });
    this.onEvent('Page.lifecycleEvent', (p) => {
      this.lifecycle.push({ loaderId: p.loaderId as string, name: p.name as string });
    });
  }

  private async networkIdle(loaderId: string, url: string): Promise<void> {
    const deadline: number = Date.now() + LOAD_TIMEOUT_MS;
    while (!this.lifecycle.some((event) => event.loaderId === loaderId && event.name === 'networkIdle')) {
      if (Date.now() > deadline) throw new Error(`${url} did not finish loading in ${LOAD_TIMEOUT_MS} ms`);
      await new Promise<void>((resolve) => setTimeout(resolve, 50));
    }
  }
}
