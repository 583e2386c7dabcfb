/** A message from the browser: the answer to a command (id) or an event (method). */
interface DevtoolsMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
}

type EventListener = (params: Record<string, unknown>, sessionId: string | undefined) => void;

interface PendingCommand {
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  method: string;
}

/**
 * The Chrome DevTools protocol over Node's own WebSocket: the few commands a page check sends need
 * no client library, and none that can download a browser of its own.
 */
export class DevtoolsConnection {
  private nextId = 1;
  private readonly pending = new Map<number, PendingCommand>();
  private readonly listeners = new Map<string, Set<EventListener>>();

  private readonly socket: WebSocket;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.addEventListener('message', (event: MessageEvent) => this.receive(String(event.data)));
    socket.addEventListener('close', () => this.failPending(new Error('the browser closed the connection')));
  }

  static async open(url: string): Promise<DevtoolsConnection> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error(`cannot connect to ${url}`)), { once: true });
    });
    return new DevtoolsConnection(socket);
  }

  /** Sends a command, to the browser or to a page's session, and resolves with its result. */
  send(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> {
    const id: number = this.nextId++;
    const message: DevtoolsMessage = {
      id,
      method,
      params,
      ...(sessionId === undefined ? {} : { sessionId }),
    };
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.socket.send(JSON.stringify(message));
    });
  }

  /** Calls listener for every event named method; returns a function that stops it. */
  on(method: string, listener: EventListener): () => void {
    const set: Set<EventListener> = this.listeners.get(method) ?? new Set<EventListener>();
    set.add(listener);
    this.listeners.set(method, set);
    return (): void => {
      set.delete(listener);
    };
  }

  close(): void {
    this.socket.close();
  }

  private receive(data: string): void {
    const message: DevtoolsMessage = JSON.parse(data) as DevtoolsMessage;
    if (message.id !== undefined) {
      this.settle(message.id, message);
      return;
    }
    if (message.method === undefined) return;
    for (const listener of this.listeners.get(message.method) ?? []) {
      listener(message.params ?? {}, message.sessionId);
    }
  }

  private settle(id: number, message: DevtoolsMessage): void {
    const command: PendingCommand | undefined = this.pending.get(id);
    if (command === undefined) return;
    this.pending.delete(id);
    if (message.error) command.reject(new Error(`${command.method}: ${message.error.message}`));
    else command.resolve(message.result ?? {});
  }

  private failPending(error: Error): void {
    for (const command of this.pending.values()) command.reject(error);
    this.pending.clear();
  }
}
