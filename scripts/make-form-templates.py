#!/usr/bin/env python3
"""Builds templates/forms/<id>.json from the geometry of the printed forms
(../shared/forms/<id>.json): the field boxes as given, plus what is printed
around them (ruled lines with their widths, titles and labels), measured on
the 300 dpi PNGs of the forms. Run once per form; the output is committed.
    python3 scripts/make-form-templates.py ../shared/forms templates/forms
"""
import json
import sys

THICK, THIN = 0.5, 0.2


def build(geo):
    f = geo["fields"]
    seats, games = geo["seats"], geo["games"]
    seat_x = [b[0] for b in f["player_id"]] + [f["player_id"][-1][0] + f["player_id"][-1][2]]
    split_x = [g["minus"][0] for g in f["game"][0]]
    rows_y = [r[0]["plus"][1] for r in f["game"]]
    row_h = f["game"][0][0]["plus"][3]
    grid_top, head_bottom = 57.0, rows_y[0]
    ges_y = f["gesamt"][0]["plus"][1]
    abz_y, end_y = f["abzug"][0][1], f["endergebnis"][0][1]
    grid_bottom = end_y + f["endergebnis"][0][3]
    sig = f["signature"]
    sig_top, sig_bottom = sig[0][1], sig[0][1] + sig[0][3]
    left, label_right, aufs_left, right = 12.0, seat_x[0], f["initials"][0][0], f["initials"][0][0] + f["initials"][0][2]
    lines = []
    h = lambda y, x1, x2, w: lines.append([x1, y, x2, y, w])
    v = lambda x, y1, y2, w: lines.append([x, y1, x, y2, w])
    # Round and table boxes.
    for key in ("round", "table"):
        x, y, w, hh = f[key]
        h(y, x, x + w, THIN); h(y + hh, x, x + w, THIN); v(x, y, y + hh, THIN); v(x + w, y, y + hh, THIN)
    # Player header table.
    top = f["player_id"][0][1] - 7.0
    h(top, left, seat_x[-1], THICK)
    for y in (f["player_id"][0][1], f["player_name"][0][1], f["player_name"][0][1] + 7.0):
        h(y, left, seat_x[-1], THIN)
    h(f["player_name"][0][1] + 14.0, left, seat_x[-1], THICK)
    for x in [left, label_right] + seat_x[1:]:
        v(x, top, f["player_name"][0][1] + 14.0, THICK)
    # Game grid.
    h(grid_top, left, right, THICK)
    h(head_bottom, left, right, THICK)
    for y in rows_y[1:]:
        h(y, left, right, THIN)
    h(ges_y, left, right, THICK)
    h(abz_y, left, right, THIN)
    h(end_y, left, right, THIN)
    h(grid_bottom, left, right, THICK)
    for x in [left, label_right] + seat_x[1:] + [right]:
        v(x, grid_top, grid_bottom, THICK)
    for x in split_x:
        v(x, grid_top, abz_y, THIN)
    # Signature boxes.
    h(sig_top, seat_x[0], seat_x[-1], THIN)
    h(sig_bottom, seat_x[0], seat_x[-1], THIN)
    for x in seat_x:
        v(x, sig_top, sig_bottom, THICK if x not in (seat_x[0], seat_x[-1]) else THICK)

    title = "Schafkopf-Turnier - Punkteliste" if geo["game"] == "schafkopf" else "Doppelkopf-Turnier - Punkteliste"
    texts = [
        {"text": title, "x": left, "y": 17.4, "size": 5.0, "bold": True},
        {"text": "Runde", "x": f["round"][0] - 2.0, "y": 18.0, "size": 3.4, "anchor": "right"},
        {"text": "Tisch", "x": f["table"][0] - 2.0, "y": 18.0, "size": 3.4, "anchor": "right"},
    ]
    for label, y in (("Spieler", top + 3.5), ("Teilnehmer-Nr.", f["player_id"][0][1] + 3.5),
                     ("Name", f["player_name"][0][1] + 3.5), ("Wohnort", f["player_name"][0][1] + 10.5)):
        texts.append({"text": label, "x": left + 1.0, "y": y, "size": 2.0})
    for s in range(seats):
        texts.append({"text": f"Spieler {s + 1}", "x": (seat_x[s] + seat_x[s + 1]) / 2, "y": top + 3.5,
                      "size": 3.2, "bold": True, "anchor": "center"})
    head_y = (grid_top + head_bottom) / 2
    texts.append({"text": "Nr.", "x": (left + label_right) / 2, "y": head_y, "size": 3.0, "bold": True, "anchor": "center"})
    for g in f["game"][0]:
        texts.append({"text": "+", "x": g["plus"][0] + g["plus"][2] / 2, "y": head_y, "size": 4.0, "bold": True, "anchor": "center"})
        texts.append({"text": "-", "x": g["minus"][0] + g["minus"][2] / 2, "y": head_y, "size": 4.0, "bold": True, "anchor": "center"})
    texts.append({"text": "Aufs.", "x": (aufs_left + right) / 2, "y": head_y, "size": 2.4, "anchor": "center"})
    for i, y in enumerate(rows_y):
        texts.append({"text": str(i + 1), "x": (left + label_right) / 2, "y": y + row_h / 2, "size": 3.0, "anchor": "center"})
    for label, y in (("Gesamt", ges_y + 3.5), ("Abzug", abz_y + 3.5), ("Endergebnis", end_y + 3.5)):
        texts.append({"text": label, "x": left + 1.0, "y": y, "size": 2.4, "bold": True})
    texts.append({"text": "Unterschrift", "x": left + 1.0, "y": (sig_top + sig_bottom) / 2, "size": 2.4})
    out = dict(geo)
    out["title"] = title
    out["grid"] = [left, grid_top, right - left, grid_bottom - grid_top]
    out["row_numbers"] = [left, label_right]
    out["lines"] = [[round(c, 2) for c in l] for l in lines]
    out["texts"] = texts
    return out


if __name__ == "__main__":
    src, dst = sys.argv[1], sys.argv[2]
    for form in ("punkteliste-a4-32", "doko-a4-24x5"):
        geo = json.load(open(f"{src}/{form}.json"))
        with open(f"{dst}/{form}.json", "w") as fh:
            json.dump(build(geo), fh, indent=1)
            fh.write("\n")
