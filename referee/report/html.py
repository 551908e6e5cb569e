"""The ``html`` report: one self-contained page with a board that replays.

No network: the CSS and the script are inline, the replay data is embedded as
JSON.  The page holds the written report (the same visitor as ``text``/``md``
through an HTML markup) and a board that replays the battle action by action
with a slider and step buttons.  Replay steps are snapshots rebuilt from the
events by :class:`~referee.report.boardview.BoardView`: the start, after each
action, after each narrowing and the end.

Deep links: ``page.html#step=N`` opens at step N; ``#press=next,next,prev``
presses the buttons in order on load (handy for linking a position in a
forum post, and how the headless-browser test steps through the page).
"""

from __future__ import annotations

import html
import json
from typing import Any

from referee.report.boardview import BoardView, file_letters
from referee.report.markup import Markup
from referee.report.messages import message, team_label, word
from referee.report.record import Report
from referee.report.written import WrittenReport

__all__ = ["HtmlMarkup", "replay_steps", "render_html"]


class HtmlMarkup(Markup):
    """Report blocks as HTML elements; every text is escaped."""

    def title(self, text: str) -> list[str]:
        return [f"<h1>{html.escape(text)}</h1>"]

    def heading(self, text: str) -> list[str]:
        return [f"<h2>{html.escape(text)}</h2>"]

    def para(self, text: str) -> list[str]:
        return [f"<p>{html.escape(text)}</p>"]

    def item(self, text: str, depth: int = 0) -> list[str]:
        return [f'<div class="item d{min(depth, 3)}">{html.escape(text)}</div>']

    def pre(self, lines: list[str]) -> list[str]:
        return ["<pre>" + html.escape("\n".join(lines)) + "</pre>"]

    def table(self, header: list[str], rows: list[list[str]]) -> list[str]:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows)
        return [f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"]


def replay_steps(report: Report, lang: str) -> list[dict[str, Any]]:
    """Board snapshots with labels: start, after each action, after each
    narrowing, end.  Each is ``{"label", "turn", "kept", "pieces"}``."""
    view = BoardView(report.inputs)
    steps: list[dict[str, Any]] = []
    started = False
    turn = 0

    def push(label: str) -> None:
        snap = view.snapshot()
        snap["label"] = label
        snap["turn"] = turn
        steps.append(snap)

    for event in report.events:
        view.apply(event)
        kind = event.TYPE
        if kind == "turn_start":
            if not started:
                started = True
                push(word(lang, "html.start"))
            elif {k: v for k, v in view.snapshot().items()} != {k: steps[-1][k] for k in ("kept", "pieces")}:
                push(message(lang, "narrowing.board", turn=turn))
            turn = event.turn
        elif kind == "action_end":
            push(f"{message(lang, 'turn', turn=turn)} · {event.actor}")
        elif kind == "battle_end":
            if not started:
                push(word(lang, "html.start"))
            push(word(lang, "html.end"))
    return steps


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI","Hiragino Sans","Noto Sans CJK JP",sans-serif;
margin:0;color:#1d1d1f;background:#fafafa;line-height:1.45}
main{max-width:60rem;margin:0 auto;padding:1rem 1.5rem 4rem}
h1{font-size:1.6rem;margin:.5rem 0}h2{font-size:1.2rem;margin:1.6rem 0 .4rem;border-bottom:1px solid #ddd}
pre{background:#f0f0f0;padding:.6rem .8rem;overflow-x:auto;font-size:.9rem}
.item{margin:.1rem 0}.item.d1{margin-left:1.5rem}.item.d2{margin-left:3rem}.item.d3{margin-left:4.5rem}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .6rem;text-align:left}
#replay{position:sticky;top:0;background:#fff;border:1px solid #ddd;padding:.6rem;margin:1rem 0;z-index:1}
#board{border-collapse:collapse;margin:.4rem 0}
#board td{width:2.4rem;height:2.4rem;text-align:center;border:1px solid #bbb;font-weight:600;font-size:.85rem}
#board th{border:none;font-weight:400;color:#777;font-size:.8rem}
#board td.out{background:#444}#board td.white{background:#e8f0ff;color:#123f8c}
#board td.black{background:#ffe9e6;color:#8c1f12}
#board td.mixed{background:linear-gradient(135deg,#e8f0ff 50%,#ffe9e6 50%);color:#333}
#controls{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap}
#slider{flex:1;min-width:12rem}#legend{font-size:.85rem;margin-top:.3rem}
#legend span{display:inline-block;margin-right:1rem}#legend .down{text-decoration:line-through;color:#999}
"""

_JS = """
(function(){
var data=JSON.parse(document.getElementById('replay-data').textContent);
var steps=data.steps,pieces=data.pieces,W=data.width,H=data.height;
var board=document.getElementById('board'),slider=document.getElementById('slider');
var label=document.getElementById('step-label'),legend=document.getElementById('legend');
function files(i){return i<26?String.fromCharCode(97+i):'a'+String.fromCharCode(71+i);}
function show(n){
  n=Math.max(0,Math.min(steps.length-1,n|0));slider.value=n;var s=steps[n];
  var at={};s.pieces.forEach(function(p,i){if(p[1]&&!p[3]){(at[p[1]]=at[p[1]]||[]).push(i);}});
  for(var y=H-1;y>=0;y--){for(var x=0;x<W;x++){
    var sq=files(x)+(y+1),td=document.getElementById('sq-'+sq),here=at[sq]||[];
    var out=x<s.kept[0]||y<s.kept[1]||x>s.kept[2]||y>s.kept[3]||data.blocked.indexOf(sq)>=0;
    var teams=here.map(function(i){return pieces[i].team;}).filter(function(t,k,a){return a.indexOf(t)===k;});
    td.className=out?'out':(teams.length>1?'mixed':(teams[0]||''));
    td.style.fontSize=here.length>2?'.7rem':'';
    td.textContent=here.map(function(i){return s.pieces[i][0];}).join(' ');
    td.title=here.map(function(i){return pieces[i].name+' HP '+s.pieces[i][2];}).join(', ');}}
  legend.innerHTML='';s.pieces.forEach(function(p,i){var e=document.createElement('span');
    e.textContent=p[0]+' '+pieces[i].name+' HP '+p[2]+'/'+pieces[i].max_hp+' '+(p[1]||'-');
    if(p[3]){e.className='down';}legend.appendChild(e);});
  label.textContent=s.label+' ('+data.stepText.replace('{index}',n+1).replace('{total}',steps.length)+')';
  board.setAttribute('data-step',n);
}
document.getElementById('prev').onclick=function(){show(+slider.value-1);};
document.getElementById('next').onclick=function(){show(+slider.value+1);};
document.getElementById('first').onclick=function(){show(0);};
document.getElementById('last').onclick=function(){show(steps.length-1);};
slider.oninput=function(){show(+slider.value);};
show(0);
var h=location.hash.replace(/^#/,'').split('&');
h.forEach(function(kv){var p=kv.split('=');
  if(p[0]==='step'){show(+p[1]);}
  if(p[0]==='press'){p[1].split(',').forEach(function(b){var e=document.getElementById(b);if(e){e.click();}});}});
document.body.setAttribute('data-ready','1');
})();
"""


def _script_safe(payload: str) -> str:
    """JSON that cannot end its ``<script>`` element or open a comment in it
    (``<!--<script>`` in a name disabled the board): ``<``, ``>`` and ``&``
    as JSON ``\\u`` escapes, which ``JSON.parse`` reads back unchanged."""
    return payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _board_table(width: int, height: int) -> str:
    head = "<tr><th></th>" + "".join(f"<th>{file_letters(x)}</th>" for x in range(width)) + "</tr>"
    rows = []
    for y in range(height - 1, -1, -1):
        cells = "".join(f'<td id="sq-{file_letters(x)}{y + 1}"></td>' for x in range(width))
        rows.append(f"<tr><th>{y + 1}</th>{cells}</tr>")
    return f'<table id="board" data-step="0">{head}{"".join(rows)}</table>'


def render_html(report: Report, lang: str, *, explain: bool = False, full: bool = False) -> str:
    """The whole page as one string (deterministic: no timestamps, no randomness)."""
    body = WrittenReport(report, lang, HtmlMarkup(), explain=explain, full=full).render()
    view = BoardView(report.inputs)
    steps = replay_steps(report, lang)
    data = {
        "width": view.width,
        "height": view.height,
        "blocked": sorted(f"{file_letters(x)}{y + 1}" for x, y in view.blocked),
        "pieces": [{"name": p.name, "team": p.team, "max_hp": p.max_hp, "label": team_label(lang, p.team)}
                   for p in view.pieces.values()],
        "steps": steps,
        "stepText": word(lang, "html.step"),
    }
    payload = _script_safe(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    title = html.escape(f"{report.title} — {word(lang, 'html.title')}")
    controls = (
        '<div id="controls">'
        f'<button id="first" type="button">{html.escape(word(lang, "html.start"))}</button>'
        f'<button id="prev" type="button">{html.escape(word(lang, "html.step_back"))}</button>'
        f'<input id="slider" type="range" min="0" max="{max(len(steps) - 1, 0)}" value="0" '
        f'aria-label="{html.escape(word(lang, "html.replay"))}">'
        f'<button id="next" type="button">{html.escape(word(lang, "html.step_forward"))}</button>'
        f'<button id="last" type="button">{html.escape(word(lang, "html.end"))}</button>'
        '</div><div id="step-label"></div>'
    )
    replay = (f'<section id="replay"><strong>{html.escape(word(lang, "html.replay"))}</strong>{controls}'
              f'{_board_table(view.width, view.height)}<div id="legend"></div></section>')
    # The first block of the body is the title; the replay goes right after it.
    first, _, rest = body.partition("\n")
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n"
        f"{first}\n{replay}\n{rest}</main>\n"
        f'<script type="application/json" id="replay-data">{payload}</script>\n'
        f"<script>{_JS}</script>\n</body>\n</html>\n"
    )
