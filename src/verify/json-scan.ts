/**
 * A JSON document read piece by piece (`verify --replay` reads its report so, decision 0228): the
 * whole text is checked as JSON, but only the values a caller selects by their path are kept; the
 * others are passed over as their bytes go by. A selected string may instead be kept as a span (its
 * byte offsets in the file, read again when needed), so a report's bodies never sit in memory.
 */

/** A value's place: member names and array indexes from the top. */
export type JsonPath = ReadonlyArray<string | number>;

/**
 * What to do with the value at a path: `keep` it (parsed and handed to `value`), `descend` into it
 * (`open` is told, and each member is asked about in turn; a scalar is kept), `span` a string (its
 * content's byte offsets handed to `span`, with whether every byte was base64; any other value is
 * kept), or `skip` it with everything inside.
 */
export type ScanChoice = 'keep' | 'descend' | 'span' | 'skip';

export interface ScanHandler {
  select(path: JsonPath): ScanChoice;
  open?(path: JsonPath, kind: 'object' | 'array'): void;
  value?(path: JsonPath, value: unknown): void;
  span?(path: JsonPath, span: { start: number; end: number; base64: boolean }): void;
}

/** The file is not JSON, or is nested or sized beyond what the scanner keeps; `message` says where. */
export class JsonScanError extends Error {}

/** Nesting a report never reaches; deeper is refused rather than kept on a stack. */
const MAX_DEPTH = 64;
/** The bytes of one kept value, of a member name, of a number or literal. */
const MAX_KEPT_BYTES = 1024 * 1024;
const MAX_TOKEN_BYTES = 1_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const isNumberByte = (b: number) =>
  (b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x2b || b === 0x2e || b === 0x65 || b === 0x45;
const isLetter = (b: number) => b >= 0x61 && b <= 0x7a;
const isBase64 = (b: number) =>
  (b >= 0x41 && b <= 0x5a) ||
  (b >= 0x61 && b <= 0x7a) ||
  (b >= 0x30 && b <= 0x39) ||
  b === 0x2b ||
  b === 0x2f;
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

interface Frame {
  kind: 'object' | 'array';
  /** What comes next: a member name (or the end), a colon, a value, a comma (or the end). */
  expect: 'first' | 'name' | 'colon' | 'value' | 'comma';
  name: string;
  index: number;
  /** Members are asked about (the container was descended into). */
  asking: boolean;
}

/** A value being kept: its bytes so far, from `from` in the current piece. */
interface Capture {
  path: JsonPath;
  depth: number;
  parts: Buffer[];
  bytes: number;
  from: number;
}

/** Scans pieces of one JSON document in order (`write`), then `end()`; throws JsonScanError. */
export class JsonScanner {
  readonly #handler: ScanHandler;
  readonly #frames: Frame[] = [];
  #rootDone = false;
  /** Bytes before the current piece. */
  #offset = 0;
  #capture: Capture | undefined;
  /** The token in progress: a string (`str`), a number or literal (`word`), or none. */
  #token: 'none' | 'str' | 'word' = 'none';
  #escape = 0; // 0: none; 1: after a backslash; 2..5: hex digits of \u left
  #str:
    | {
        role: 'name' | 'value';
        keep: Buffer[] | undefined;
        kept: number;
        spanStart?: number;
        base64: boolean;
        pad: number;
      }
    | undefined;
  #word = '';
  #wordPath: JsonPath | undefined;
  #wordChoice: ScanChoice = 'skip';

  constructor(handler: ScanHandler) {
    this.#handler = handler;
  }

  #fail(what: string, at: number): never {
    throw new JsonScanError(`${what} at byte ${at}`);
  }

  /** The path of the value about to start (the top of the stack names it). */
  #path(): JsonPath {
    return this.#frames.map((f) => (f.kind === 'object' ? f.name : f.index));
  }

  /** Whether members of the innermost container are asked about. */
  #asking(): boolean {
    const top = this.#frames.at(-1);
    return top === undefined ? !this.#rootDone : top.asking && this.#capture === undefined;
  }

  write(piece: Buffer): void {
    const n = piece.length;
    let i = 0;
    if (this.#capture) this.#capture.from = 0;
    while (i < n) {
      if (this.#token === 'str') {
        i = this.#stringBytes(piece, i);
        continue;
      }
      const b = piece[i]!;
      if (this.#token === 'word') {
        if (isNumberByte(b) || isLetter(b)) {
          if (this.#word.length >= MAX_TOKEN_BYTES)
            this.#fail('a number or literal too long', this.#offset + i);
          this.#word += String.fromCharCode(b);
          i++;
          continue;
        }
        this.#endWord(this.#offset + i);
        continue;
      }
      i++;
      if (isSpace(b)) continue;
      this.#structural(b, piece, i - 1);
    }
    const c = this.#capture;
    if (c && c.from < n) this.#captureBytes(piece.subarray(c.from, n));
    this.#offset += n;
  }

  end(): void {
    if (this.#token === 'word') this.#endWord(this.#offset);
    if (this.#token === 'str' || this.#frames.length > 0 || !this.#rootDone)
      this.#fail('unexpected end of the file', this.#offset);
  }

  #captureBytes(bytes: Buffer): void {
    const c = this.#capture!;
    c.bytes += bytes.length;
    if (c.bytes > MAX_KEPT_BYTES)
      throw new JsonScanError(`${c.path.join('.') || 'the top level'} is over ${MAX_KEPT_BYTES} bytes`);
    c.parts.push(Buffer.from(bytes));
  }

  /** A byte outside strings, numbers and literals, at `at` of `piece`. */
  #structural(b: number, piece: Buffer, at: number): void {
    const top = this.#frames.at(-1);
    const where = this.#offset + at;
    if (top && top.kind === 'object' && (top.expect === 'first' || top.expect === 'name')) {
      if (b === 0x7d && top.expect === 'first') {
        this.#close(piece, at + 1);
        return;
      }
      if (b !== QUOTE) this.#fail('expected a member name', where);
      this.#beginString('name', top.asking && this.#capture === undefined, undefined);
      return;
    }
    if (top?.expect === 'colon') {
      if (b !== 0x3a) this.#fail('expected ":"', where);
      top.expect = 'value';
      return;
    }
    if (top?.expect === 'comma') {
      if (b === 0x2c) {
        if (top.kind === 'object') top.expect = 'name';
        else {
          top.index++;
          top.expect = 'value';
        }
        return;
      }
      if ((b === 0x7d && top.kind === 'object') || (b === 0x5d && top.kind === 'array')) {
        this.#close(piece, at + 1);
        return;
      }
      this.#fail(`expected "," or "${top.kind === 'object' ? '}' : ']'}"`, where);
    }
    if (top?.kind === 'array' && top.expect === 'first' && b === 0x5d) {
      this.#close(piece, at + 1);
      return;
    }
    if (!top && this.#rootDone) this.#fail('more after the end of the document', where);
    // A value begins.
    if (top) top.expect = 'value';
    const asking = this.#asking();
    const path = asking ? this.#path() : undefined;
    let choice: ScanChoice = path ? this.#handler.select(path) : 'skip';
    if (b === 0x7b || b === 0x5b) {
      if (this.#frames.length >= MAX_DEPTH) this.#fail(`nested deeper than ${MAX_DEPTH}`, where);
      const kind = b === 0x7b ? 'object' : 'array';
      if (choice === 'span') choice = 'keep';
      if (choice === 'keep')
        this.#capture = { path: path!, depth: this.#frames.length, parts: [], bytes: 0, from: at };
      if (choice === 'descend') this.#handler.open?.(path!, kind);
      this.#frames.push({ kind, expect: 'first', name: '', index: 0, asking: choice === 'descend' });
      return;
    }
    if (b === QUOTE) {
      if (choice === 'descend') choice = 'keep';
      this.#beginString('value', choice !== 'skip', choice === 'span' ? this.#offset + at + 1 : undefined);
      this.#wordPath = path;
      this.#wordChoice = choice;
      return;
    }
    if (isNumberByte(b) || isLetter(b)) {
      this.#token = 'word';
      this.#word = String.fromCharCode(b);
      this.#wordPath = path;
      this.#wordChoice = choice;
      return;
    }
    this.#fail(`unexpected "${String.fromCharCode(b)}"`, where);
  }

  /** The container closed by the byte before `after`. */
  #close(piece: Buffer, after: number): void {
    this.#frames.pop();
    const c = this.#capture;
    if (c && c.depth === this.#frames.length) {
      this.#captureBytes(piece.subarray(c.from, after));
      this.#capture = undefined;
      this.#deliver(c.path, Buffer.concat(c.parts).toString('utf8'));
    }
    this.#valueDone();
  }

  #valueDone(): void {
    const top = this.#frames.at(-1);
    if (top) top.expect = 'comma';
    else this.#rootDone = true;
  }

  #deliver(path: JsonPath, text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new JsonScanError((err as Error).message);
    }
    this.#handler.value?.(path, value);
  }

  #beginString(role: 'name' | 'value', keep: boolean, spanStart: number | undefined): void {
    this.#token = 'str';
    this.#escape = 0;
    this.#str = {
      role,
      keep: keep && spanStart === undefined ? [] : undefined,
      kept: 0,
      ...(spanStart === undefined ? {} : { spanStart }),
      base64: true,
      pad: 0,
    };
  }

  /** Reads string bytes from `i`; answers where it stopped (after the closing quote, or the piece's end). */
  #stringBytes(piece: Buffer, i: number): number {
    const s = this.#str!;
    const from = i;
    const n = piece.length;
    const span = s.spanStart !== undefined;
    for (; i < n; i++) {
      const b = piece[i]!;
      if (this.#escape === 1) {
        if (b === 0x75) this.#escape = 5;
        else if ('"\\/bfnrt'.includes(String.fromCharCode(b))) this.#escape = 0;
        else this.#fail('a bad escape', this.#offset + i);
        continue;
      }
      if (this.#escape > 1) {
        if (!/[0-9a-fA-F]/.test(String.fromCharCode(b))) this.#fail('a bad \\u escape', this.#offset + i);
        this.#escape = this.#escape === 2 ? 0 : this.#escape - 1;
        continue;
      }
      if (b === QUOTE) break;
      if (b < 0x20) this.#fail('a control character in a string', this.#offset + i);
      if (b === BACKSLASH) {
        this.#escape = 1;
        s.base64 = false;
        continue;
      }
      if (span && s.base64) {
        if (b === 0x3d) s.pad++;
        else if (s.pad > 0 || !isBase64(b)) s.base64 = false;
        if (s.pad > 2) s.base64 = false;
      }
    }
    if (s.keep) {
      s.kept += i - from;
      if (s.kept > (s.role === 'name' ? MAX_TOKEN_BYTES : MAX_KEPT_BYTES))
        this.#fail(`a ${s.role === 'name' ? 'member name' : 'string'} too long`, this.#offset + i);
      s.keep.push(Buffer.from(piece.subarray(from, i)));
    }
    if (i === n) return n;
    // The closing quote.
    this.#token = 'none';
    const top = this.#frames.at(-1);
    if (s.role === 'name') {
      top!.name = s.keep ? (JSON.parse(`"${Buffer.concat(s.keep).toString('utf8')}"`) as string) : '';
      top!.expect = 'colon';
      return i + 1;
    }
    const path = this.#wordPath;
    if (s.spanStart !== undefined && path)
      this.#handler.span?.(path, { start: s.spanStart, end: this.#offset + i, base64: s.base64 });
    else if (s.keep && path) this.#deliver(path, `"${Buffer.concat(s.keep).toString('utf8')}"`);
    this.#valueDone();
    return i + 1;
  }

  /** A number or literal ended before `at` (absolute). */
  #endWord(at: number): void {
    this.#token = 'none';
    const word = this.#word;
    if (!(word === 'true' || word === 'false' || word === 'null' || NUMBER.test(word)))
      this.#fail(`"${word.slice(0, 40)}" is not a JSON value`, at - word.length);
    if (this.#wordChoice !== 'skip' && this.#wordPath)
      this.#handler.value?.(this.#wordPath, JSON.parse(word));
    this.#valueDone();
  }
}
