'use strict';
// Builds a grep result from what the addon sends (bindings/node/src/transfer.rs): `head`, the
// JSON of the result without its files; `text`, every path and line end to end; `numbers`, a
// Float64Array of the files' numbers and the UTF-16 end of each piece of `text`. The objects
// are the plain objects index.d.ts documents, with their keys in the order the core's JSON
// gives them.

const PATH_BYTES = 1;
const RELATIVE_PATH_BYTES = 2;

/** The GrepResult packed in `transfer`. */
function grepResult({ head, text, numbers }) {
  const result = JSON.parse(head);
  const files = [];
  const n = numbers;
  const length = n.length;
  let i = 0;
  let at = 0;
  while (i < length) {
    const flags = n[i];
    let end = n[i + 1];
    const path = text.slice(at, end);
    at = end;
    end = n[i + 2];
    const relativePath = text.slice(at, end);
    at = end;
    const count = n[i + 3];
    const matchCount = n[i + 4];
    const bytesSearched = n[i + 5];
    const binaryOffset = n[i + 6] === -1 ? null : n[i + 6];
    i += 7;
    const matches = new Array(matchCount);
    for (let m = 0; m < matchCount; m++) {
      const lineNumber = n[i];
      const column = n[i + 1];
      const byteOffset = n[i + 2];
      end = n[i + 3];
      const lineText = text.slice(at, end);
      at = end;
      const truncated = n[i + 4] === 1;
      const sectionEnd = n[i + 5] === 0 ? null : n[i + 5];
      const submatchCount = n[i + 6];
      const beforeCount = n[i + 7];
      const afterCount = n[i + 8];
      i += 9;
      const submatches = new Array(submatchCount);
      for (let s = 0; s < submatchCount; s++, i += 2) submatches[s] = [n[i], n[i + 1]];
      const before = new Array(beforeCount);
      for (let c = 0; c < beforeCount; c++, i += 4) {
        end = n[i + 2];
        before[c] = { lineNumber: n[i], byteOffset: n[i + 1], text: text.slice(at, end), truncated: n[i + 3] === 1 };
        at = end;
      }
      const after = new Array(afterCount);
      for (let c = 0; c < afterCount; c++, i += 4) {
        end = n[i + 2];
        after[c] = { lineNumber: n[i], byteOffset: n[i + 1], text: text.slice(at, end), truncated: n[i + 3] === 1 };
        at = end;
      }
      matches[m] = { lineNumber, column, byteOffset, text: lineText, truncated, submatches, sectionEnd, before, after };
    }
    files.push({
      path: flags & PATH_BYTES ? { bytes: path } : path,
      relativePath: flags & RELATIVE_PATH_BYTES ? { bytes: relativePath } : relativePath,
      count,
      matches,
      bytesSearched,
      binaryOffset,
    });
  }
  result.files = files;
  return result;
}

/**
 * A path from a result as text: itself when it is a string, else (`{ bytes }`, a name that is
 * not UTF-8) its bytes decoded lossily, as Node's `fs` would print them.
 */
function pathText(corePath) {
  return typeof corePath === 'string' ? corePath : Buffer.from(corePath.bytes, 'base64').toString('utf8');
}

module.exports = { grepResult, pathText };
