/**
 * CSV (RFC 4180) for the exports and bulk uploads the original platform offers (`@users`, `@aliases`): written with
 * `,` and CRLF, quoted where a cell needs it; read with a header line naming the columns, each record remembering
 * the line it starts on, so a refusal can name it. Identity and content both use it.
 */
import { z } from 'zod';
import { badRequest, clip, type FieldError } from '../errors/app-error';

/** The text of a CSV file: a header line of `columns`, then one line per row. */
export function csvText(columns: readonly string[], rows: readonly (readonly string[])[]): string {
  return [columns, ...rows].map((row) => row.map(csvCell).join(',') + '\r\n').join('');
}

function csvCell(value: string): string {
  // A leading = + - @ makes a spreadsheet run the cell as a formula; a quote-prefixed apostrophe keeps it text.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One record of an uploaded file: its cells by column name, and the line (1-based) it starts on. */
export interface CsvRecord {
  line: number;
  cells: Record<string, string>;
}

export interface CsvLimits {
  /** Most records taken (the header not counted); more is a 400. */
  maxRecords: number;
}

/**
 * The records of `text` under its header line. A quote left open, a record with more cells than the header or a
 * header with an empty or repeated name is a 400 naming the line; a record with fewer cells leaves the rest empty
 * (as Python's `csv.DictReader` does), and blank lines are skipped.
 */
export function parseCsv(text: string, limits: CsvLimits): CsvRecord[] {
  const rows = csvRows(text.startsWith('\uFEFF') ? text.slice(1) : text);
  const header = rows.shift();
  if (!header) throw badRequest('The CSV file is empty: it needs a header line naming its columns');
  const columns = header.cells.map((c) => c.trim());
  const repeated = columns.find((c, i) => columns.indexOf(c) !== i);
  if (columns.some((c) => c === '') || repeated !== undefined)
    throw csvError([{ line: header.line, message: 'the header names every column once' }]);
  if (rows.length > limits.maxRecords)
    throw badRequest(`The CSV file has ${rows.length} records; at most ${limits.maxRecords} are taken at once`);
  const errors: { line: number; message: string }[] = [];
  const records: CsvRecord[] = [];
  for (const row of rows) {
    if (row.cells.length > columns.length) {
      errors.push({ line: row.line, message: `${row.cells.length} cells, but the header names ${columns.length}` });
      continue;
    }
    records.push({ line: row.line, cells: Object.fromEntries(columns.map((c, i) => [c, row.cells[i] ?? ''])) });
  }
  if (errors.length) throw csvError(errors);
  return records;
}

/**
 * Each record read through `schema` (its cells as an object); every record that does not fit is named by its line
 * and column in one 400, and nothing of the file is taken.
 */
export function csvValues<T>(records: readonly CsvRecord[], schema: z.ZodType<T, z.ZodTypeDef, unknown>): T[] {
  const errors: { line: number; message: string }[] = [];
  const values: T[] = [];
  for (const record of records) {
    const result = schema.safeParse(record.cells);
    if (result.success) values.push(result.data);
    else
      for (const issue of result.error.issues)
        errors.push({ line: record.line, message: `${clip(issue.path.join('.') || 'record', 100)}: ${issue.message}` });
  }
  if (errors.length) throw csvError(errors);
  return values;
}

/** A 400 naming each line of a CSV file that was refused, and why. */
export function csvError(problems: readonly { line: number; message: string }[]) {
  const errors: FieldError[] = problems.slice(0, 50).map((p) => ({ field: `line ${p.line}`, message: p.message }));
  const text = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
  return badRequest(`CSV file refused, nothing was taken: ${clip(text, 1000)}`, errors);
}

/** The rows of `text`, each with the line it starts on; a quoted cell may span lines. */
function csvRows(text: string): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let quoteLine = 1;
  const endRow = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0] !== '') rows.push({ line: rowLine, cells });
    cells = [];
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"' && cell === '') {
      quoted = true;
      quoteLine = line;
    } else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else cell += c;
  }
  if (quoted) throw csvError([{ line: quoteLine, message: 'a quoted cell is never closed' }]);
  endRow();
  return rows;
}
