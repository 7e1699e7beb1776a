import { z } from 'zod';
import { AppError } from '../../src/errors/app-error';
import { csvText, csvValues, parseCsv } from '../../src/encoding/csv';

const LIMITS = { maxRecords: 10 };

/** The refusal `work` throws, as its message and its per-line errors. */
function refusal(work: () => unknown): { message: string; fields: string[] } {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return { message: error.message, fields: (error.errors ?? []).map((e) => e.field) };
    throw error;
  }
  throw new Error('not refused');
}

describe('CSV', () => {
  it('reads records under the header, each with the line it starts on (a quoted cell may span lines)', () => {
    const text = '\uFEFFname,note\r\nann,"two\nlines"\r\n\r\nbob,"say ""hi"", then go"\nceline\n';
    expect(parseCsv(text, LIMITS)).toEqual([
      { line: 2, cells: { name: 'ann', note: 'two\nlines' } },
      { line: 5, cells: { name: 'bob', note: 'say "hi", then go' } },
      { line: 6, cells: { name: 'celine', note: '' } },
    ]);
  });

  it('refuses, naming the line: a quote never closed, too many cells, a bad header, too many records', () => {
    expect(refusal(() => parseCsv('a,b\n1,2\n"3,4\n', LIMITS)).fields).toEqual(['line 3']);
    expect(refusal(() => parseCsv('a,b\n1,2,3\n4,5\n6,7,8,9\n', LIMITS)).fields).toEqual(['line 2', 'line 4']);
    expect(refusal(() => parseCsv('a,a\n1,2\n', LIMITS)).fields).toEqual(['line 1']);
    expect(refusal(() => parseCsv('', LIMITS)).message).toMatch(/empty/);
    expect(refusal(() => parseCsv('a\n' + '1\n'.repeat(11), LIMITS)).message).toMatch(/at most 10/);
  });

  it('reads each record through a schema, naming every line and column that does not fit', () => {
    const records = parseCsv('n\n1\nx\n2\ny\n', LIMITS);
    const schema = z.object({ n: z.string().regex(/^\d+$/, 'a number') });
    const { message, fields } = refusal(() => csvValues(records, schema));
    expect(fields).toEqual(['line 3', 'line 5']);
    expect(message).toMatch(/line 3: n: a number/);
    expect(csvValues(parseCsv('n\n1\n2\n', LIMITS), schema)).toEqual([{ n: '1' }, { n: '2' }]);
  });

  it('writes quoted cells where needed, and keeps a spreadsheet from running a cell as a formula', () => {
    expect(
      csvText(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          ['=SUM(A1)', 'line\nbreak'],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n\'=SUM(A1),"line\nbreak"\r\n');
    expect(parseCsv(csvText(['a'], [['x,"y"']]), LIMITS)[0].cells.a).toBe('x,"y"');
  });
});
