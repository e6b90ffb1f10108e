import { escapeHtml } from '../core/html.js';

export { escapeHtml };

/** No scripts, no external assets: inline styles only. */
export const DOCS_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#fafbfc}
main{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0}h2{font-size:1.3rem;margin-top:2rem;border-bottom:2px solid #d8dee8}
h3{font-size:1.05rem;margin:0;word-break:break-word}
a{color:#0b5cad}code{font:.9em ui-monospace,SFMono-Regular,Menlo,monospace;background:#eef1f5;padding:.05em .3em;border-radius:3px;word-break:break-word}
nav ul{padding-left:1.2rem}
.op{background:#fff;border:1px solid #d8dee8;border-radius:6px;padding:.8rem 1rem;margin:1rem 0}
.m{display:inline-block;min-width:4.2em;text-align:center;font:600 .8rem ui-monospace,monospace;color:#fff;border-radius:3px;padding:.1em .4em;margin-right:.4em}
.GET{background:#1f7a3d}.POST{background:#0b5cad}.PATCH,.PUT{background:#a35d00}.DELETE{background:#b3261e}
.auth{font-size:.85rem;color:#555}
table{border-collapse:collapse;width:100%;font-size:.92rem;margin:.4rem 0}
th,td{text-align:left;vertical-align:top;border-top:1px solid #e3e7ee;padding:.3rem .4rem}
th{font-weight:600;background:#f3f5f8}
.tw{overflow-x:auto}
pre{background:#eef1f5;padding:.6rem;border-radius:4px;overflow-x:auto;font:.85rem ui-monospace,monospace}
ul.errs{padding-left:1.2rem;margin:.3rem 0}ul.errs li{margin:.15rem 0}
dl{margin:.4rem 0}dt{font-weight:600}dd{margin:0 0 .6rem 0}
@media (max-width:40rem){body{font-size:15px}main{padding:.6rem}.op{padding:.6rem}
thead{display:none}table,tbody,tr,td{display:block;width:100%}tr{border-top:1px solid #d8dee8;padding:.3rem 0}
td{border:0;padding:.1rem .2rem}td:empty{display:none}td::before{content:attr(data-label) ": ";font-weight:600;color:#555}}
`;

/** A whole page around `body`, the same frame for the reference and the problem pages. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}
