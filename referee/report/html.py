"""The ``html`` report: one self-contained page with a replay worth watching.

No network: the CSS and the script are inline, the replay data is embedded as
JSON (with ``<``, ``>`` and ``&`` escaped, so no name can end the script
element).  The page holds the written report (the same visitor as ``text``,
through an HTML markup) beside a sticky replay board (issue 15, item 4):

- one step per action (plus the start, each narrowing and the end), built by
  :func:`referee.report.steps.replay_steps`, with its narration line -- the
  compact text log's line for that action;
- the actor and its targets highlighted, damage and heals floating over the
  pieces, HP bars on the pieces, moves, knockbacks and pushes drawn as arrows;
- square cells of a fixed size however many share an area (two pieces, then
  a ``+N`` badge; the tooltip and the HP list name everyone);
- play/pause with a speed, the arrow keys, Space, Home and End, a slider.

Deep links: ``page.html#step=N`` opens at step N (1 is the start, as the
label counts), and the address follows the slider.  ``#press=next,next,prev``
presses buttons in order and ``#keys=ArrowRight,End`` presses keys, on load
(how the headless-browser test drives the page); ``#play`` starts playing.
"""

from __future__ import annotations

import html
import json
from typing import Any

from referee.report.boardview import BoardView, file_letters
from referee.report.markup import Markup, one_line
from referee.report.messages import team_label, word
from referee.report.record import Report
from referee.report.steps import Step, replay_steps
from referee.report.written import WrittenReport

__all__ = ["HtmlMarkup", "replay_steps", "render_html", "Step"]


def _esc(text: str) -> str:
    return html.escape(one_line(text))


class HtmlMarkup(Markup):
    """Report blocks as HTML elements; every text is escaped."""

    def title(self, text: str) -> list[str]:
        return [f"<h1>{_esc(text)}</h1>"]

    def heading(self, text: str) -> list[str]:
        return [f"<h2>{_esc(text)}</h2>"]

    def para(self, text: str) -> list[str]:
        return [f"<p>{_esc(text)}</p>"]

    def item(self, text: str, depth: int = 0) -> list[str]:
        return [f'<div class="item d{min(depth, 3)}">{_esc(text)}</div>']

    def pre(self, lines: list[str]) -> list[str]:
        return ["<pre>" + html.escape("\n".join(one_line(line) for line in lines)) + "</pre>"]

    def table(self, header: list[str], rows: list[list[str]]) -> list[str]:
        head = "".join(f"<th>{_esc(h)}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td>{_esc(c)}</td>" for c in r) + "</tr>" for r in rows)
        return [f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"]


_CSS = """
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI","Hiragino Sans","Noto Sans CJK JP",sans-serif;
margin:0;color:#1d1d1f;background:#fafafa;line-height:1.45}
main{display:grid;grid-template-columns:minmax(25rem,31rem) minmax(0,1fr);gap:1.5rem;
max-width:92rem;margin:0 auto;padding:0 1.5rem 4rem}
#report{min-width:0;padding-top:1rem}
h1{font-size:1.6rem;margin:.5rem 0}h2{font-size:1.2rem;margin:1.6rem 0 .4rem;border-bottom:1px solid #ddd}
pre{background:#f0f0f0;padding:.6rem .8rem;overflow-x:auto;font-size:.85rem}
.item{margin:.1rem 0}.item.d1{margin-left:1.5rem}.item.d2{margin-left:3rem}.item.d3{margin-left:4.5rem}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .6rem;text-align:left}
#replay{position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto;background:#fff;
border:1px solid #ddd;border-top:none;padding:.6rem .8rem;z-index:1}
#replay h2{margin:.2rem 0 .4rem;font-size:1.1rem}
#stage{position:relative;display:inline-block}
#board{border-collapse:collapse;table-layout:fixed;margin:0}
#board td{width:3.3rem;min-width:3.3rem;max-width:3.3rem;height:3.3rem;padding:1px;border:1px solid #bbb;
vertical-align:middle;text-align:center;position:relative;overflow:visible;background:#fff}
#board th{border:none;font-weight:400;color:#777;font-size:.75rem;padding:0 .2rem;text-align:center}
#board td.out{background:#555}
#board td.object{background:#8d6e63}#board td.object::after{content:"O";color:#fff;font-weight:800}
#board td.barrier{background:repeating-linear-gradient(45deg,#dbeafe 0 5px,#fff 5px 10px)}
.pc{display:block;margin:1px auto;width:2.9rem;border-radius:4px;font-size:.72rem;font-weight:700;line-height:1.05;
padding:1px 0 2px;border:2px solid transparent}
.pc.white{background:#dce8ff;color:#123f8c}.pc.black{background:#ffe0da;color:#8c1f12}
.pc.actor{border-color:#e0a000;box-shadow:0 0 0 2px #ffd866}.pc.target{border-color:#d0342c}
.pc.fell{opacity:.45;text-decoration:line-through}
.hp{display:block;height:4px;margin:1px 3px 0;background:#ccc;border-radius:2px;overflow:hidden}
.hp b{display:block;height:100%;background:#2e9e4f}.hp b.low{background:#e0a000}.hp b.crit{background:#d0342c}
.badge{position:absolute;right:1px;bottom:1px;font-size:.62rem;font-weight:700;background:#333;color:#fff;
border-radius:.6rem;padding:0 .3rem;line-height:1.3;z-index:1}
.fx{position:absolute;right:-.5rem;top:-.3rem;font-weight:800;font-size:.95rem;
pointer-events:none;animation:rise 1.6s ease-out forwards;text-shadow:0 0 3px #fff,0 0 3px #fff,0 0 3px #fff;z-index:3}
.fx.dmg{color:#c0221a}.fx.heal{color:#1d7f3a}
@keyframes rise{0%{opacity:1;top:-.3rem}75%{opacity:1}100%{opacity:0;top:-1.6rem}}
#arrows{position:absolute;left:0;top:0;pointer-events:none;overflow:visible;z-index:2}
#arrows line{stroke-width:3;stroke-linecap:round}
#arrows .move{stroke:#6b7280;stroke-dasharray:5 4}#arrows .knock{stroke:#d0342c}#arrows .push{stroke:#7c3aed}
#controls{display:flex;gap:.35rem;align-items:center;flex-wrap:wrap;margin:.5rem 0 .3rem}
#controls button{font:inherit;font-size:.85rem;padding:.15rem .5rem}
#slider{flex:1;min-width:8rem}
#step-label{font-weight:700;margin-top:.3rem}
#narration{min-height:4.2em;margin:.2rem 0 .4rem;padding:.4rem .6rem;background:#fffbea;border-left:4px solid #e0a000;
font-size:.92rem}
#roster{font-size:.82rem;display:grid;grid-template-columns:auto 1fr auto auto;gap:.1rem .5rem;align-items:center}
#roster .hp{width:5rem;margin:0}#roster .fell{text-decoration:line-through;color:#999}
#roster .actor{font-weight:800;color:#8a5a00}#roster .target{color:#b3261e;font-weight:700}
#keys{font-size:.75rem;color:#777;margin-top:.4rem}
@media (max-width:62rem){main{grid-template-columns:1fr}#replay{max-height:62vh;border:1px solid #ddd}}
"""

_JS = r"""
(function(){
var data=JSON.parse(document.getElementById('replay-data').textContent);
var steps=data.steps,pieces=data.pieces,W=data.width,H=data.height,N=steps.length;
var board=document.getElementById('board'),slider=document.getElementById('slider');
var label=document.getElementById('step-label'),narr=document.getElementById('narration');
var roster=document.getElementById('roster'),svg=document.getElementById('arrows');
var playBtn=document.getElementById('play'),speed=document.getElementById('speed');
var cur=0,timer=null;
function files(i){return i<26?String.fromCharCode(97+i):'a'+String.fromCharCode(71+i);}
function el(tag,cls,text){var e=document.createElement(tag);if(cls){e.className=cls;}
  if(text!==undefined){e.textContent=text;}return e;}
function bar(hp,max){var o=el('i','hp'),b=el('b'),f=max>0?hp/max:0;
  b.style.width=Math.max(0,Math.min(100,Math.round(f*100)))+'%';if(f<=.25){b.className='crit';}else if(f<=.5){b.className='low';}
  o.appendChild(b);return o;}
function center(sq){var td=document.getElementById('sq-'+sq);
  return td?[td.offsetLeft+td.offsetWidth/2,td.offsetTop+td.offsetHeight/2]:null;}
function arrows(s){while(svg.lastChild){svg.removeChild(svg.lastChild);}
  svg.setAttribute('width',board.offsetWidth);svg.setAttribute('height',board.offsetHeight);
  var seen={};s.arrows.forEach(function(a){var k=a.join();if(seen[k]){return;}seen[k]=1;
    var p=center(a[0]),q=center(a[1]);if(!p||!q){return;}
    var dx=q[0]-p[0],dy=q[1]-p[1],d=Math.sqrt(dx*dx+dy*dy)||1,cut=Math.min(16,d/3);
    p=[p[0]+dx/d*cut,p[1]+dy/d*cut];q=[q[0]-dx/d*cut,q[1]-dy/d*cut];
    var l=document.createElementNS('http://www.w3.org/2000/svg','line');
    l.setAttribute('x1',p[0]);l.setAttribute('y1',p[1]);l.setAttribute('x2',q[0]);l.setAttribute('y2',q[1]);
    l.setAttribute('class',a[2]);l.setAttribute('marker-end','url(#head-'+a[2]+')');
    l.setAttribute('data-from',a[0]);l.setAttribute('data-to',a[1]);svg.appendChild(l);});}
function role(s,i){return s.actor===i?'actor':(s.targets.indexOf(i)>=0?'target':'');}
function rank(s,i){return s.actor===i?0:(s.targets.indexOf(i)>=0?1:2);}
function show(n,animate){
  n=Math.max(0,Math.min(N-1,n|0));cur=n;slider.value=n;var s=steps[n];
  var at={};s.pieces.forEach(function(p,i){if(p[0]&&(!p[2]||s.downs.indexOf(i)>=0)){(at[p[0]]=at[p[0]]||[]).push(i);}});
  for(var y=H-1;y>=0;y--){for(var x=0;x<W;x++){
    var sq=files(x)+(y+1),td=document.getElementById('sq-'+sq),here=at[sq]||[];
    var out=x<s.kept[0]||y<s.kept[1]||x>s.kept[2]||y>s.kept[3]||data.blocked.indexOf(sq)>=0;
    td.className=out?'out':((s.objects||[]).indexOf(sq)>=0?'object':((data.barriers||[]).indexOf(sq)>=0?'barrier':''));
    td.textContent='';
    here.sort(function(a,b){return rank(s,a)-rank(s,b)||a-b;});
    var shown=Math.min(2,here.length);
    for(var k=0;k<shown;k++){var i=here[k],p=s.pieces[i],c=el('span','pc '+pieces[i].team,pieces[i].symbol);
      var r=role(s,i);if(r){c.className+=' '+r;}if(p[2]){c.className+=' fell';}
      c.setAttribute('data-name',pieces[i].name);c.appendChild(bar(p[1],pieces[i].max_hp));td.appendChild(c);}
    if(here.length>2){td.appendChild(el('span','badge','+'+(here.length-2)));}
    td.title=here.map(function(i){return pieces[i].symbol+' '+pieces[i].name+' HP '+s.pieces[i][1]+'/'+pieces[i].max_hp+
      (s.pieces[i][2]?' ('+data.downWord+')':'');}).join('\n');}}
  var stack={};s.fx.forEach(function(f){var p=s.pieces[f[0]],td=p[0]&&document.getElementById('sq-'+p[0]);if(!td){return;}
    var e=el('span','fx '+(f[1]<0?'dmg':'heal'),(f[1]>0?'+':'')+f[1]);e.setAttribute('data-name',pieces[f[0]].name);
    var k=stack[p[0]]=(stack[p[0]]||0)+1;if(k%2===0){e.style.right='auto';e.style.left='-.5rem';}
    if(k>2){e.style.marginTop=(Math.floor((k-1)/2)*1.1)+'rem';}td.appendChild(e);});
  arrows(s);
  roster.textContent='';s.pieces.forEach(function(p,i){var r=role(s,i),cls=(p[2]?'fell ':'')+r;
    roster.appendChild(el('span',cls,pieces[i].symbol));roster.appendChild(el('span',cls,pieces[i].name));
    roster.appendChild(bar(p[1],pieces[i].max_hp));
    roster.appendChild(el('span',cls,p[1]+'/'+pieces[i].max_hp+' '+(p[0]||'-')+(p[2]?' ('+data.downWord+')':'')));});
  label.textContent=s.label+' ('+data.stepText.replace('{index}',n+1).replace('{total}',N)+')';
  narr.textContent=s.text;
  board.setAttribute('data-step',n+1);
  if(history.replaceState){try{history.replaceState(null,'','#step='+(n+1));}catch(e){}}
  document.body.setAttribute('data-hash',location.hash);
}
function stop(){if(timer){clearTimeout(timer);timer=null;}playBtn.textContent=data.playText;playBtn.setAttribute('aria-pressed','false');}
function tick(){if(cur>=N-1){stop();return;}show(cur+1);timer=setTimeout(tick,1000/(+speed.value||1));}
function play(){if(timer){stop();return;}if(cur>=N-1){show(0);}playBtn.textContent=data.pauseText;
  playBtn.setAttribute('aria-pressed','true');timer=setTimeout(tick,1000/(+speed.value||1));}
document.getElementById('prev').onclick=function(){stop();show(cur-1);};
document.getElementById('next').onclick=function(){stop();show(cur+1);};
document.getElementById('first').onclick=function(){stop();show(0);};
document.getElementById('last').onclick=function(){stop();show(N-1);};
playBtn.onclick=play;
slider.oninput=function(){stop();show(+slider.value);};
function key(e){var t=e.target&&e.target.tagName;if(t==='INPUT'||t==='SELECT'||t==='TEXTAREA'){if(e.key!==' '){return;}}
  if(e.key==='ArrowRight'){stop();show(cur+1);}else if(e.key==='ArrowLeft'){stop();show(cur-1);}
  else if(e.key===' '||e.key==='Spacebar'){play();}else if(e.key==='Home'){stop();show(0);}
  else if(e.key==='End'){stop();show(N-1);}else{return;}e.preventDefault();}
document.addEventListener('keydown',key);
window.addEventListener('resize',function(){arrows(steps[cur]);});
var start=0,actions=[];
location.hash.replace(/^#/,'').split('&').forEach(function(kv){var p=kv.split('=');
  if(p[0]==='step'){start=(+p[1]||1)-1;}
  if(p[0]==='press'||p[0]==='keys'){(p[1]||'').split(',').forEach(function(v){actions.push([p[0],decodeURIComponent(v)]);});}
  if(p[0]==='play'){actions.push(['play','']);}});
show(start);
actions.forEach(function(a){if(a[0]==='press'){var e=document.getElementById(a[1]);if(e){e.click();}}
  else if(a[0]==='keys'){document.dispatchEvent(new KeyboardEvent('keydown',{key:a[1],bubbles:true,cancelable:true}));}
  else{play();}});
window.addEventListener('hashchange',function(){var m=/step=(\d+)/.exec(location.hash);if(m&&+m[1]-1!==cur){stop();show(+m[1]-1);}});
document.body.setAttribute('data-ready','1');
})();
"""


def _board_table(width: int, height: int) -> str:
    head = "<tr><th></th>" + "".join(f"<th>{file_letters(x)}</th>" for x in range(width)) + "</tr>"
    rows = []
    for y in range(height - 1, -1, -1):
        cells = "".join(f'<td id="sq-{file_letters(x)}{y + 1}"></td>' for x in range(width))
        rows.append(f"<tr><th>{y + 1}</th>{cells}</tr>")
    return f'<table id="board" data-step="1">{head}{"".join(rows)}</table>'


_MARKERS = "".join(
    f'<marker id="head-{kind}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" '
    f'orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="{colour}"/></marker>'
    for kind, colour in (("move", "#6b7280"), ("knock", "#d0342c"), ("push", "#7c3aed")))


def _script_safe(payload: str) -> str:
    """JSON that cannot end its ``<script>`` element or open a comment in it
    (``<!--<script>`` in a name disabled the board): ``<``, ``>`` and ``&``
    as JSON ``\\u`` escapes, which ``JSON.parse`` reads back unchanged."""
    return payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _replay_data(report: Report, lang: str, view: BoardView, steps: list[Step]) -> dict[str, Any]:
    index = {name: i for i, name in enumerate(view.pieces)}
    return {
        "width": view.width,
        "height": view.height,
        "blocked": sorted(f"{file_letters(x)}{y + 1}" for x, y in view.blocked),
        # soulwired's barriers (R-SOUL-TERR-1), only on a board that has any
        **({"barriers": sorted(f"{file_letters(x)}{y + 1}" for x, y in view.barriers)} if view.barriers else {}),
        "pieces": [{"name": p.name, "symbol": p.symbol, "team": p.team, "max_hp": p.max_hp,
                    "label": team_label(lang, p.team)} for p in view.pieces.values()],
        "steps": [s.to_json(index) for s in steps],
        "stepText": word(lang, "html.step"),
        "playText": word(lang, "html.play"),
        "pauseText": word(lang, "html.pause"),
        "downWord": word(lang, "final.down"),
    }


def _replay_panel(lang: str, view: BoardView, steps: int) -> str:
    def button(name: str, key: str) -> str:
        return f'<button id="{name}" type="button">{html.escape(word(lang, key))}</button>'

    speeds = "".join(f'<option value="{v}"{" selected" if v == "1" else ""}>{v}×</option>'
                     for v in ("0.5", "1", "2", "4", "8"))
    controls = (
        '<div id="controls">'
        + button("first", "html.start") + button("prev", "html.step_back")
        + f'<button id="play" type="button" aria-pressed="false">{html.escape(word(lang, "html.play"))}</button>'
        + button("next", "html.step_forward") + button("last", "html.end")
        + f'<label>{html.escape(word(lang, "html.speed"))} <select id="speed">{speeds}</select></label>'
        + f'<input id="slider" type="range" min="0" max="{max(steps - 1, 0)}" value="0" '
        f'aria-label="{html.escape(word(lang, "html.replay"))}">'
        + "</div>"
    )
    return (
        f'<aside id="replay"><h2>{html.escape(word(lang, "html.replay"))}</h2>'
        f'<div id="stage">{_board_table(view.width, view.height)}'
        f'<svg id="arrows" aria-hidden="true"><defs>{_MARKERS}</defs></svg></div>'
        f'{controls}<div id="step-label"></div><div id="narration" aria-live="polite"></div>'
        f'<div id="roster"></div><div id="keys">{html.escape(word(lang, "html.keys"))}</div></aside>'
    )


def render_html(report: Report, lang: str, *, explain: bool = False, full: bool = False) -> str:
    """The whole page as one string (deterministic: no timestamps, no randomness)."""
    body = WrittenReport(report, lang, HtmlMarkup(), explain=explain, full=full).render()
    view = BoardView(report.inputs)
    steps = replay_steps(report, lang)
    payload = _script_safe(json.dumps(_replay_data(report, lang, view, steps), ensure_ascii=False,
                                      separators=(",", ":")))
    title = _esc(f"{report.title} — {word(lang, 'html.title')}")
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n"
        f"{_replay_panel(lang, view, len(steps))}\n<article id=\"report\">\n{body}</article>\n</main>\n"
        f'<script type="application/json" id="replay-data">{payload}</script>\n'
        f"<script>{_JS}</script>\n</body>\n</html>\n"
    )
