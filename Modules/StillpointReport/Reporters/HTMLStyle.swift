/// The HTML report's style sheet, inlined in the page so it needs no network: a warm sand background,
/// sage, lavender and sand accents, system fonts, and a dark variant that follows the system setting.
///
/// The heatmap's shade of a day without practice (`--l0`) and its lightest shade of practice (`--l1`) differ
/// by a contrast ratio of at least 3:1 (WCAG's minimum for parts of a graphic), in both variants, so a day of
/// practice never reads as a day without.
///
/// ```swift
/// "<style>" + HTMLStyle.css + "</style>"
/// ```
enum HTMLStyle {
    static let css = """
    :root {
      --page: #f6f3ee; --card: #fffdf9; --line: #e9e3d9; --ink: #2d3a34; --muted: #78837d; --faint: #a9b0ab;
      --sage: #6f9a83; --sage-deep: #3f6b57; --lavender: #9a8fc6; --sand: #c9a56b; --clay: #b8674f;
      --l0: #efebe4; --l1: #5a9172; --l2: #437b5f; --l3: #2f634a; --l4: #1d4634;
      --shadow: 0 1px 2px rgba(60, 50, 30, .05), 0 4px 18px rgba(60, 50, 30, .05);
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --page: #1d2220; --card: #252b28; --line: #343c38; --ink: #e7ece8; --muted: #9ca7a1; --faint: #6d7772;
        --sage: #86b29a; --sage-deep: #a9d1bb; --lavender: #aea4d8; --sand: #d6b67f; --clay: #d98a72;
        --l0: #2e3532; --l1: #5b8f75; --l2: #76ab8f; --l3: #94c7aa; --l4: #bde6cd;
        --shadow: none;
      }
    }
    * { box-sizing: border-box; }
    html { background: var(--page); }
    body {
      margin: 0; color: var(--ink); background: var(--page);
      font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "Helvetica Neue", "Noto Sans", "DejaVu Sans", sans-serif;
      -webkit-font-smoothing: antialiased;
    }
    main { max-width: 1120px; margin: 0 auto; padding: 44px 32px 40px; }
    .masthead { display: flex; align-items: center; gap: 18px; margin-bottom: 30px; }
    .mark { width: 52px; height: 52px; flex: none; }
    .mark circle { fill: none; stroke: var(--sage); }
    h1 {
      margin: 0; font: 400 34px/1.15 "Iowan Old Style", "Palatino Linotype", Palatino, Georgia, "DejaVu Serif", serif;
      letter-spacing: -.01em;
    }
    .subtitle { margin: 4px 0 0; color: var(--muted); }
    .notice { margin: 0 0 16px; padding: 10px 14px; border-radius: 10px; background: var(--card); border: 1px solid var(--line); }
    h2 { margin: 0; font-size: 17px; font-weight: 600; letter-spacing: .01em; }
    h3 {
      margin: 0 0 6px; color: var(--muted); font-size: 12px; font-weight: 600;
      letter-spacing: .08em; text-transform: uppercase;
    }
    .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); column-gap: 14px; margin-bottom: 4px; }
    .card, .panel {
      background: var(--card); border: 1px solid var(--line); border-radius: 16px; box-shadow: var(--shadow);
    }
    /* Each card spans three rows of the grid (title, value, notes) through a subgrid, so the values of a row
       of cards line up whether their titles wrap and whether they have notes. */
    .card { display: grid; grid-row: span 3; grid-template-rows: subgrid; row-gap: 0; align-content: start; padding: 16px 18px 14px; margin-bottom: 14px; }
    .card.wide { grid-column: 1 / -1; }
    .big { margin: 0; font-size: 28px; font-weight: 600; line-height: 1.2; color: var(--sage-deep); font-variant-numeric: tabular-nums; white-space: nowrap; }
    .big .unit { font-size: .62em; font-weight: 500; margin-left: .08em; }
    .card.failed { border-color: color-mix(in srgb, var(--clay) 45%, var(--line)); }
    .card.failed .big, .card.cancelled .big { font-size: 18px; color: var(--clay); }
    .card.cancelled .big { color: var(--faint); }
    .note { margin: 6px 0 0; color: var(--muted); font-size: 12.5px; line-height: 1.4; }
    .notes:empty { display: none; }
    .date { white-space: nowrap; }
    .panel { padding: 20px 22px 18px; margin-bottom: 18px; }
    .panel-head { display: flex; align-items: baseline; justify-content: space-between; gap: 16px; margin-bottom: 12px; }
    .panel-head p { margin: 0; color: var(--muted); font-size: 13px; text-align: right; }
    .pair { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; }
    .pair .panel { margin-bottom: 18px; }
    @media (max-width: 760px) { .pair { grid-template-columns: 1fr; } }
    .empty {
      margin: 0; padding: 34px 12px; text-align: center; color: var(--muted);
      border: 1px dashed var(--line); border-radius: 12px; background: color-mix(in srgb, var(--page) 50%, var(--card));
    }
    svg.chart { display: block; width: 100%; height: auto; overflow: visible; }
    svg text { font-family: inherit; }
    .tick { fill: var(--muted); font-size: 11px; }
    .label { fill: var(--muted); font-size: 11.5px; }
    .value { fill: var(--ink); font-size: 11px; font-weight: 600; }
    .caption { fill: var(--muted); font-size: 12px; }
    .caption.inside { fill: var(--card); font-weight: 600; }
    .break { stroke: var(--card); stroke-width: 3; }
    .value.outlier { fill: var(--clay); }
    .grid { stroke: var(--line); stroke-width: 1; }
    .axis { stroke: var(--faint); stroke-width: 1; }
    .bar.sage { fill: var(--sage); } .bar.lavender { fill: var(--lavender); } .bar.sand { fill: var(--sand); }
    .bar.empty { fill: var(--line); }
    g:hover > .bar { opacity: .8; }
    .day { stroke: rgba(0, 0, 0, .03); }
    .l0 { fill: var(--l0); } .l1 { fill: var(--l1); } .l2 { fill: var(--l2); } .l3 { fill: var(--l3); } .l4 { fill: var(--l4); }
    .streak.run { fill: color-mix(in srgb, var(--sage) 55%, var(--card)); } .streak.longest { fill: var(--sage-deep); } .streak.current { fill: var(--lavender); }
    .run-length { font-size: 12.5px; font-weight: 600; fill: var(--ink); }
    .run-length.current { fill: var(--lavender); }
    .chips { display: flex; flex-wrap: wrap; gap: 10px; margin: 0 0 14px; padding: 0; list-style: none; }
    .chips li {
      display: flex; align-items: baseline; gap: 8px; padding: 6px 14px; border-radius: 999px;
      background: color-mix(in srgb, var(--sage) 12%, var(--card)); color: var(--muted); font-size: 13px;
    }
    .chips li.current { background: color-mix(in srgb, var(--lavender) 16%, var(--card)); }
    .chips strong { color: var(--ink); font-size: 16px; }
    .groups { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(300px, 100%), 1fr)); align-items: start; gap: 4px 40px; margin-top: 4px; }
    /* One grid per list, its rows `display: contents`, so bars and values line up down the list. */
    .breakdown { display: grid; grid-template-columns: minmax(6em, max-content) minmax(60px, 1fr) max-content; align-items: center; align-content: start; gap: 6px 14px; margin: 4px 0 0; padding: 0; list-style: none; font-size: 13.5px; }
    .breakdown li { display: contents; }
    .breakdown li.plain > span:last-child { grid-column: 2 / -1; }
    .breakdown li.heading > span { grid-column: 1 / -1; margin-top: 6px; color: var(--muted); font-size: 11.5px; font-weight: 600; letter-spacing: .08em; text-transform: uppercase; }
    .breakdown .share { height: 8px; border-radius: 4px; background: var(--l0); overflow: hidden; }
    .breakdown .share i { display: block; height: 100%; border-radius: 4px; background: var(--sage); }
    .breakdown .v { color: var(--muted); font-variant-numeric: tabular-nums; text-align: right; white-space: nowrap; }
    .breakdown li > span { min-width: 0; overflow-wrap: anywhere; }
    /* Narrow screens: less padding, and the breakdowns drop their bars and let values wrap, so that nothing
       leaves its card. */
    @media (max-width: 560px) {
      main { padding: 28px 14px 32px; }
      .card { padding: 14px 14px 12px; }
      .panel { padding: 16px 14px 14px; }
      .breakdown { grid-template-columns: minmax(0, 1fr) minmax(0, max-content); }
      .breakdown .share { display: none; }
      .breakdown .v { white-space: normal; }
      .breakdown li.plain > span:last-child { grid-column: auto; }
    }
    footer { margin-top: 26px; color: var(--faint); font-size: 12px; text-align: center; }
    """
}
