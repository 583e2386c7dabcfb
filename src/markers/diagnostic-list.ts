import type { Diagnostic, DiagnosticCode, SourceLocation } from './diagnostic.ts';
import { DiagnosticsError } from './diagnostic.ts';

/**
 * Collects diagnostics while a generator runs, so the user sees every problem at once instead of
 * fixing them one run at a time.
 */
export class DiagnosticList {
  readonly #items: Diagnostic[] = [];

  error(code: DiagnosticCode, message: string, location: SourceLocation): void {
    this.#items.push({ code, severity: 'error', message, location });
  }

  /** A problem that does not stop generation, e.g. a marker that changes nothing. */
  warning(code: DiagnosticCode, message: string, location: SourceLocation): void {
    this.#items.push({ code, severity: 'warning', message, location });
  }

  add(diagnostic: Diagnostic): void {
    this.#items.push(diagnostic);
  }

  get items(): readonly Diagnostic[] {
    return this.#items;
  }

  hasErrors(): boolean {
    return this.#items.some((d) => d.severity === 'error');
  }

  /** Throws a DiagnosticsError holding every diagnostic when any of them is an error. */
  throwIfErrors(): void {
    if (this.hasErrors()) throw new DiagnosticsError(this.#items);
  }
}
