/** A text's line ending: CRLF when every line ends with one (a Windows checkout's), else LF. */
export type LineEnding = '\r\n' | '\n';

/** The line ending of `text`: CRLF only when it has line breaks and each is a CRLF. */
export function lineEnding(text: string): LineEnding {
  const breaks = text.split('\n').length - 1;
  return breaks > 0 && text.split('\r\n').length - 1 === breaks ? '\r\n' : '\n';
}

/** `text` with `from`'s line endings turned into LF, as tsoperator generates files. */
export function toLf(text: string, from: LineEnding): string {
  return from === '\n' ? text : text.replaceAll('\r\n', '\n');
}

/** An LF `text` with each line ending made `to`. */
export function fromLf(text: string, to: LineEnding): string {
  return to === '\n' ? text : text.replaceAll('\n', '\r\n');
}
