/* html_assets.c — the report page's style sheet and script.  The script
 * is small and optional (the page reads whole without it): hover values
 * follow the pointer, tables sort by a click on a column's head, and the
 * "tables" toggle opens or closes every data table at once. */
#include "sinks/html/html_assets.h"

const char html_style[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;max-width:1000px;"
    "padding:16px 20px;color:#222;background:#fff}\n"
    "h1{font-size:22px;margin:4px 0}h2{font-size:17px;margin:22px 0 6px;border-bottom:1px solid #ddd}\n"
    ".meta{color:#555;margin:0 0 10px;word-break:break-all}\n"
    "#summary{background:#f4f7fb;border-left:4px solid #4e79a7;padding:8px 14px;margin:10px 0}\n"
    "#summary ul{margin:4px 0;padding-left:20px}#summary li{margin:3px 0}\n"
    ".fig{margin:14px 0;break-inside:avoid;page-break-inside:avoid}\n"
    "figcaption{font-weight:600;margin-bottom:4px}\n"
    ".fig svg{max-width:100%;height:auto;font-size:12px;font-family:inherit}\n"
    ".fig text.tick{fill:#444;font-size:11px}.note{color:#555;font-size:12px;margin:2px 0}\n"
    ".runs{display:grid;grid-template-columns:1fr 1fr;gap:12px}.runs>div{min-width:0}\n"
    "table{border-collapse:collapse;font-size:12px;margin:6px 0}th,td{border:1px solid #ddd;padding:2px 6px;"
    "text-align:right}th{background:#f0f0f0;cursor:pointer}td:first-child,th:first-child{text-align:left}\n"
    "details{margin:4px 0}summary{cursor:pointer;color:#2f4b7c}\n"
    "#tip{position:fixed;pointer-events:none;background:#222;color:#fff;padding:3px 6px;border-radius:3px;"
    "font-size:12px;display:none;white-space:pre}\n"
    "button{font:inherit;margin:4px 0}\n"
    "@media print{body{max-width:none}button,#tip{display:none}details{display:block}"
    ".runs{grid-template-columns:1fr}}\n";

const char html_script[] =
    "(function(){\n"
    "var tip=document.getElementById('tip');\n"
    "document.addEventListener('mousemove',function(e){\n"
    " var t=e.target,s=t&&t.querySelector&&t.querySelector(':scope>title');\n"
    " if(!s){tip.style.display='none';return;}\n"
    " tip.textContent=s.textContent;tip.style.display='block';\n"
    " tip.style.left=(e.clientX+12)+'px';tip.style.top=(e.clientY+12)+'px';});\n"
    "function key(td){var v=parseFloat(td.textContent);return isNaN(v)?td.textContent:v;}\n"
    "document.querySelectorAll('table.data th').forEach(function(th,i){\n"
    " th.addEventListener('click',function(){\n"
    "  var tb=th.closest('table').tBodies[0],c=th.cellIndex,up=th.dataset.up!=='1';\n"
    "  th.dataset.up=up?'1':'0';\n"
    "  var rows=Array.prototype.slice.call(tb.rows);\n"
    "  rows.sort(function(a,b){var x=key(a.cells[c]),y=key(b.cells[c]);\n"
    "   var r=(typeof x===typeof y)?(x<y?-1:x>y?1:0):(typeof x==='number'?-1:1);return up?-r:r;});\n"
    "  rows.forEach(function(r){tb.appendChild(r);});});});\n"
    "var b=document.getElementById('toggle-tables');\n"
    "if(b)b.addEventListener('click',function(){var d=document.querySelectorAll('details.table');\n"
    " var open=!(d.length&&d[0].open);d.forEach(function(x){x.open=open;});});\n"
    "})();\n";
