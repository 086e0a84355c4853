# Was aufsicht auf der Kommandozeile sagt, auf Deutsch. Ein Verein ändert
# einen Wortlaut, indem er diese Datei in den Ordner kopiert, den
# AUFSICHT_MESSAGES nennt, und sie dort bearbeitet: ihre Einträge gelten,
# ohne neu zu übersetzen.

## Laden, was der Befehl bekommt
load-rules = das Regelwerk (--rules) lässt sich nicht laden
load-form = das Formular (--form) lässt sich nicht laden
load-forms = die Formulare (--forms) lassen sich nicht laden
load-participants = die Teilnehmerliste (--participants) ist nicht verwendbar
input-missing = { $path } gibt es nicht: bitte den Pfad prüfen
nothing-to-read = Kein Bild und kein PDF zum Lesen gefunden: nichts gescannt, kein Abend angelegt
dpi-range = --dpi { $dpi } liegt außerhalb: 50 bis 1200 angeben
page-format = { $path }: der Ausgabe einen Namen auf .png, .jpg, .tif oder .pdf geben
cannot-write = { $path } lässt sich nicht schreiben
cannot-create-folder = der Ausgabeordner { $path } lässt sich nicht anlegen
cannot-write-folder = in den Ausgabeordner { $path } lässt sich nicht schreiben
cannot-lock = { $path } lässt sich nicht sperren

## scan
scan-waiting = ein anderer Scan schreibt gerade nach { $path }: warte, bis er fertig ist
scan-bar = {"{"}bar:30{"}"} {"{"}pos{"}"}/{"{"}len{"}"} Dateien  {"{"}msg{"}"}  {"{"}elapsed{"}"} vergangen, {"{"}eta{"}"} übrig
scan-progress = { $sheets ->
    [one] { $sheets } Blatt
   *[other] { $sheets } Blätter
}, { $flagged } markiert oder unlesbar
scan-resumed = { $count ->
        [one] 1 Datei war
       *[other] { $count } Dateien waren
    } schon im Archiv: von dort übernommen, nicht neu gelesen
scan-done = { $sheets ->
    [one] { $sheets } Blatt
   *[other] { $sheets } Blätter
}, { $ok } in Ordnung, { $flagged } markiert, { $unreadable } unlesbar; Ergebnisse und summary.csv in { $path }
scan-failed = { $count } Dateien haben keine Ergebnisdatei (siehe oben): die Ursache beheben und denselben Befehl noch einmal ausführen; fertige Dateien werden nicht zweimal gelesen
scan-incomplete = { $count } Dateien oder Ordner ließen sich nicht vom Laufwerk lesen (siehe oben und summary.csv): die Ursache beheben und denselben Befehl noch einmal ausführen

## verify, standings, review
verify-other-rules = Hinweis: { $file } nennt das Regelwerk `{ $named }`; geprüft wurde mit `{ $rules }`, wie --rules sagt
standings-verify-failed = { $file }: { $error }; gezählt wie geschrieben, mit seinen Markierungen, wie sie sind
standings-other-rules = { $count ->
    [one] { $count } Blatt wurde
   *[other] { $count } Blätter wurden
} unter einem anderen Regelwerk als --rules { $rules } gelesen: { $first }{ $more }; jedes Regelwerk für sich werten
and-more = {" "}und { $count } weitere
write-output = die Ausgabe lässt sich nicht schreiben: { $error }
write-checks = die Abendprüfungen lassen sich nicht nach { $path } schreiben
standings-done = { $players ->
    [one] { $players } Spieler
   *[other] { $players } Spieler
} aus { $sheets ->
    [one] { $sheets } Blatt
   *[other] { $sheets } Blättern
}; { $checks ->
    [one] { $checks } Abendprüfung
   *[other] { $checks } Abendprüfungen
} (in { $path }); { $review } Spieler mit Blättern zur Durchsicht
not-a-folder = { $path } ist kein Ordner: die Ordner der Blattergebnisse angeben (scan --out)
skipped-json = übersprungen: { $file }: { $error }
no-results = keine Blattergebnisse (*.json) in { $dirs }: zuerst `aufsicht scan --out ORDNER` ausführen
review-no-alignment = { $file }: keine gespeicherte Ausrichtung (mit einer älteren Version gescannt?): keine Ausschnitte dafür
review-missing-images = { $count ->
    [one] { $count } markiertes Blatt
   *[other] { $count } markierte Blätter
} ohne ihren Scan (verschoben?): die Seite zeigt ihre Markierungen ohne Ausschnitte
review-done = Durchsichtsseite für { $count ->
    [one] { $count } Blatt
   *[other] { $count } Blätter
} nach { $path } geschrieben: im Browser öffnen

## Archiv, export, correct
archive-missing = { $path } gibt es nicht: das Archiv angeben, das ein Scan geschrieben hat (scan --archive, sonst aufsicht.sqlite in --out); die Prüfstelle legt es mit --rules und --tournament neu an
export-done = { $count ->
    [one] { $count } Blatt
   *[other] { $count } Blätter
} und values.csv nach { $path } geschrieben
export-season-done = { $nights ->
    [one] { $nights } Abend
   *[other] { $nights } Abende
}, { $count ->
    [one] { $count } Liste
   *[other] { $count } Listen
} nach { $path } exportiert (nights.csv nennt sie)
by-empty = --by ist leer: angeben, wer das Blatt berichtigt hat (Name oder Kürzel)
correct-not-archived = { $file }: seine Quelle { $source } (Seite { $page }) ist nicht im Archiv: ein Ergebnis berichtigen, das ein Scan in dieses Archiv geschrieben hat
correct-no-rules = Das Archiv nennt für dieses Blatt keinen Regelsatz: bitte --rules angeben.
correct-change = { $field }: { $old } -> { $new }
blank = (leer)
correct-done = { $count ->
    [one] { $count } Wert
   *[other] { $count } Werte
} von { $by } berichtigt; das Blatt hat jetzt { $flags ->
    [one] { $flags } Markierung
   *[other] { $flags } Markierungen
}

## Fehler der Bibliothek
template-read = { $file } lässt sich nicht lesen: { $problem }
template-not-json = { $file } ist keine Vorlage: Zeile { $line } ist kein JSON (eine Vorlage schreibt form learn)
template-invalid = { $file }:{ $line }: { $field }{ $message }
template-field = Feld `{ $field }`:{" "}
template-unknown = unbekanntes { $what } „{ $name }“: eines von { $known } angeben oder den Pfad einer eigenen Datei
what-form = Formular
what-rules = Regelwerk
sheet-read = { $file } lässt sich nicht lesen: { $problem }
sheet-json = { $file }:{ $line }: kein Blattergebnis ({ $field }{ $message })
sheet-shape = { $file }: kein Blattergebnis: Feld `{ $field }` { $message }
shape-schema = ist „{ $found }“, erwartet „{ $schema }“
shape-seats = hat { $seats } Plätze; ein Blatt hat 4 oder 5
shape-entries = hat { $len } Einträge, `players` aber { $seats } Plätze
shape-not-player-no = „{ $id }“ ist keine Teilnehmer-Nr. (nur Ziffern, oder null)
shape-row-cells = Zeile { $row } hat { $cells } Zellen, das Blatt aber { $seats } Plätze
shape-row-zero = Zeilennummern beginnen bei 1
shape-row-twice = Zeile { $row } steht zweimal da
shape-row-beyond = Zeile { $row } liegt jenseits jedes Formulars (1 bis { $most })
shape-out-of-range = ist { $n }; erlaubt sind 1 bis { $most }
shape-flag-row = ist { $row }; Zeilen gehen von 1 bis { $most }
shape-flag-seat = ist { $seat }; die Plätze des Blatts gehen von 1 bis { $seats }
sheet-binary = { $file }: kein Blattergebnis (Binärdaten, kein JSON-Text)
sheet-seats-for-rules = das Blatt nutzt { $used } Plätze, aber das Regelwerk `{ $rules }` ist für Tische mit höchstens { $max }: --rules prüfen
sheet-too-few-seats = das Blatt hat { $seats } Platzspalten, aber das Regelwerk `{ $rules }` braucht einen Tisch mit { $players }: --rules prüfen
archive-open = das Archiv { $path } lässt sich nicht öffnen: { $message } (eine andere --archive-Datei angeben)
archive-busy = Archiv: ein anderes Programm (ein Scan, `correct` oder der Durchsichtsdienst) hält das Archiv seit zwei Minuten belegt: noch einmal versuchen, wenn es fertig ist
archive-not-archive = Archiv: die Datei ist kein aufsicht-Archiv (eine andere --archive-Datei angeben)
archive-disk-full = Archiv: das Laufwerk ist voll: Platz schaffen und denselben Befehl noch einmal ausführen
archive-read-only = Archiv: das Archiv oder sein Ordner ist nicht beschreibbar (schreibgeschützt?): eine andere --archive-Datei angeben
archive-sql = Archiv: { $message }
archive-scan = Archiv: der Scan { $path } lässt sich nicht aufbewahren: { $message }
archive-corrupt = Archiv: ein gespeichertes Ergebnis lässt sich nicht zurücklesen: { $message }
archive-server-unreachable = Archiv: der PostgreSQL-Server { $address } antwortet nicht (läuft er, stimmen Rechner und Port?)
archive-server-login = Archiv: der PostgreSQL-Server { $address } lehnt die Anmeldung ab (Benutzer oder Passwort stimmen nicht)
archive-server-waited = Archiv: ein anderer Spielort schreibt seit einer Minute in das Zentralarchiv; nichts Halbes wurde gespeichert: später noch einmal versuchen
archive-server-no-password = Archiv: der PostgreSQL-Server { $address } verlangt ein Passwort; es steht weder in der Adresse noch in PGPASSWORD noch in ~/.pgpass
push-waiting = wartet auf einen anderen Spielort, der gerade in das Zentralarchiv schreibt …
archive-server-no-database = Archiv: der PostgreSQL-Server kennt die Datenbank aus { $address } nicht
archive-server-refused = Archiv: der PostgreSQL-Server { $address } lehnt ab: { $message }
archive-server-gone = Archiv: die Verbindung zum PostgreSQL-Server ist abgebrochen; nichts Halbes wurde gespeichert: noch einmal versuchen
archive-other-version = Archiv { $path }: es hat das ältere Format { $version }, diese Version liest Format { $known }: erst mit dieser Version öffnen (etwa `aufsicht archive check DATEI`), dann senden
archive-other-venue = Archiv: „{ $night }“ gibt es im zentralen Archiv schon, aus dem Archiv eines anderen Spielorts: mit --venue einen eigenen Namen wählen
archive-server-conflict = Archiv: ein anderer Vorgang hat dasselbe eben gespeichert; nichts Halbes wurde gespeichert: noch einmal versuchen
archive-pushed-as = Archiv: dieser Abend des Spielorts steht im zentralen Archiv schon als „{ $as }“; unter „{ $night }“ zählte er doppelt: mit demselben --venue senden wie damals
archive-scans-elsewhere = Archiv: jeder Scan dieses Abends steht im zentralen Archiv schon im Abend „{ $there }“; unter „{ $night }“ zählten dieselben Listen doppelt: nicht gesendet
archive-server-silent = Archiv: unter { $address } antwortet kein PostgreSQL-Server (zehn Sekunden ohne Antwort): stimmen Rechner und Port?
archive-server-tls = Archiv: { $address } verlangt TLS, das aufsicht nicht spricht: den Server über ein VPN oder einen SSH-Tunnel erreichen und sslmode weglassen
archive-server-backup = Archiv: ein Archiv auf einem PostgreSQL-Server ({ $address }) sichert der Server selbst (pg_dump)
archive-column = Archiv: Spalte { $column } einer Antwort hält nicht, was das Archiv dort schreibt
archive-bad-date = Archiv: das gespeicherte Datum eines Abends „{ $date }“ ist kein Datum
archive-stored-form = Archiv: das Formular { $form } des Abends ist keine Formularvorlage: { $message }
archive-scan-read = Archiv: ein aufbewahrter Scan lässt sich nicht lesen: { $message }
archive-no-such-tournament = Archiv: kein Turnier „{ $name }“; das Archiv enthält: { $names }
archive-empty = Archiv: das Archiv ist leer: zuerst hinein scannen
archive-several = Archiv: das Archiv enthält mehrere Abende ({ $names }): einen mit --tournament nennen, mit Namen oder Datum
archive-no-such-sheet = Archiv: kein Blatt mit der Nummer { $id }
archive-no-such-player = Teilnehmer { $player } steht auf keinem Blatt dieses Abends
archive-newer = { $path } wurde von einer neueren Version von aufsicht geschrieben (Archiv-Version { $version }, diese kennt { $known }): bitte mit der neueren Version öffnen; das Archiv bleibt unverändert
archive-date-differs = Der Abend { $name } ist auf den { $had } datiert, nicht auf den { $given }: anderen Turniernamen wählen oder das Datum berichtigen
bad-date = { $option } { $date } ist kein Datum (T.M.JJJJ oder JJJJ-MM-TT).
archive-backed-up = { $archive } gesichert nach { $path }
check-scan-altered = der aufbewahrte Scan { $sha256 } passt nicht mehr zu seinem Hash
check-result-altered = das gespeicherte Ergebnis von Liste { $sheet } passt nicht mehr zu seinem Hash
check-result-unreadable = das gespeicherte Ergebnis von Liste { $sheet } lässt sich nicht lesen: { $message }
check-values-differ = Liste { $sheet }: Werte, die das Archiv anders hält als ihr gespeichertes Ergebnis: { $count } (zuerst { $first })
check-summary = { $scans ->
        [one] 1 Scan
       *[other] { $scans } Scans
    } und { $sheets ->
        [one] 1 Liste
       *[other] { $sheets } Listen
    } geprüft; die Scans belegen { $mb } MB, { $kb } kB je Liste; { $without ->
        [one] 1 Liste
       *[other] { $without } Listen
    } ohne aufbewahrten Scan
check-damaged = das Archiv ist beschädigt: { $count ->
        [one] 1 Befund
       *[other] { $count } Befunde
    } oben
archive-csv = Archiv: CSV lässt sich nicht schreiben: { $message }
participants-read = die Teilnehmerliste { $path } lässt sich nicht lesen: { $problem }
participants-empty = { $path }: keine Teilnehmernummern darin (eine CSV mit der Kopfzeile number,name oder eine Nummer je Zeile)
participants-list = Teilnehmerliste { $path }: { $problem }
roster-no-column = die Kopfzeile hat keine Spalte „{ $column }“ (erwartet: number,name,…)
roster-bad-number = Zeile { $line }: „{ $number }“ ist keine Teilnehmernummer (1 bis 6 Ziffern)
roster-duplicate = Zeile { $line }: die Nummer { $number } steht schon in Zeile { $first }
roster-csv = Zeile { $line }: { $message }
draw-too-few = { $players } Teilnehmer sind zu wenige: ein Tisch braucht { $least }
draw-uneven = { $players } Teilnehmer lassen sich nicht an Vierertische setzen: { $add } mehr oder { $remove } weniger anmelden
draw-write = die Sitzordnung { $path } lässt sich nicht schreiben
draw-done = { $players } Teilnehmer, { $rounds ->
        [one] 1 Runde
       *[other] { $rounds } Runden
    } zu je { $tables ->
        [one] 1 Tisch
       *[other] { $tables } Tischen
    } ({ $fives ->
        [one] 1 Fünfertisch
       *[other] { $fives } Fünfertische
    })
draw-seed = Seed { $seed }
draw-no-repeats = niemand trifft einen Gegner zweimal
draw-repeats = { $repeats } Begegnungen wiederholen sich (weniger fanden sich nicht)
hall-round = { $title } Runde { $round }
hall-table = Tisch
hall-slip-seat = Runde { $round }: Tisch { $table }, Platz { $seat }
hall-slip-free = Runde { $round }: spielfrei
hall-write = die Tischliste und Platzkarten { $path } lassen sich nicht schreiben
seating-header = die erste Zeile der Sitzordnung muss „round,table,seat,player“ sein
seating-row = Sitzordnung Zeile { $line }: erwartet Runde, Tisch, Platz (Zahlen ab 1) und eine Teilnehmernummer
seating-twice = Sitzordnung Zeile { $line }: der Platz ist schon besetzt, oder der Teilnehmer sitzt in dieser Runde schon
seating-gap = in der Sitzordnung fehlt eine Runde, ein Tisch oder ein Platz zwischen anderen
seating-read = die Sitzordnung { $path } ist nicht verwendbar
print-nothing = nichts zu drucken: die Sitzordnung hat diese Runde nicht
print-done = { $sheets } Punktelisten gedruckt in { $path }
print-too-many = ein Tisch mit { $seats } Plätzen passt nicht auf das Formular { $form } ({ $room } Plätze)
print-unknown = die Teilnehmernummer { $number } der Sitzordnung steht nicht in der Teilnehmerliste
reader-tesseract-missing = Tesseract startet nicht: tesseract-ocr-eng installieren (scripts/install-deps.sh)
reader-tesseract-not-built = dieser Build von aufsicht hat kein Tesseract: --reader cnn nehmen oder mit Tesseract bauen (docs/install.md)
reader-model = das Modell „{ $which }“ lässt sich nicht lesen: { $message }
batch-readers = die Ziffernleser lassen sich nicht einrichten: { $message }
batch-hash = { $path } lässt sich nicht lesen, um seinen Inhalt festzuhalten: { $problem }
batch-write = { $path } lässt sich nicht schreiben: { $problem } (Ausgabeordner und freien Platz prüfen)

## Abendprüfungen (standings)
check-sheet-unreadable = Blatt { $sheet } ließ sich nicht lesen: die Liste noch einmal scannen oder fotografieren; was versehentlich gesendet wurde, an der Prüfstelle verwerfen
check-wrong-game = { $sheet } ist das Blatt eines anderen Spiels: seine Spieler zählen nicht, bis jemand entscheidet (für ungültig erklären, oder mit dem richtigen Regelwerk einlesen)
check-round-or-table-missing = Blatt { $sheet } hat keine lesbare Runden- oder Tischnummer: sie in das JSON des Blatts schreiben; seine Punkte zählen in der Summe, aber in keiner Rundenspalte
check-player-id-unreadable = Blatt { $sheet }, Platz { $seat }: keine lesbare Teilnehmer-Nr.; diese Punkte gehören niemandem, bis sie in das JSON des Blatts geschrieben ist
check-table-twice = Runde { $round }, Tisch { $table } steht auf { $count } Blättern ({ $sheets }): ein doppelt gescanntes Blatt oder eine falsche Nummer; das Doppel entfernen oder die Nummer berichtigen
check-player-twice-in-round = Spieler { $player } sitzt in Runde { $round } an { $count } Plätzen ({ $sheets }): die Teilnehmernummern auf diesen Blättern prüfen
check-player-missing-round = Spieler { $player } hat kein Blatt in Runde { $rounds }{ $hint }: ein fehlendes Blatt oder eine falsch gelesene Teilnehmer-Nr.; das Blatt suchen oder die Nummer berichtigen
check-player-not-registered = Spieler { $player } ({ $sheets }) steht nicht auf der Teilnehmerliste{ $hint }: die Nummer auf dem Blatt berichtigen oder eine Nachmeldung in die Liste aufnehmen
check-registered-without-sheet = der angemeldete Spieler { $player } steht auf keinem Blatt{ $hint }: ein fehlendes Blatt, eine falsch gelesene Nummer oder ein Spieler, der nicht kam
check-table-without-sheet = Runde { $round }, Tisch { $table } (gelost: { $players }): keine Punkteliste; fehlt das Blatt, oder ist Runde oder Tisch falsch gelesen?
check-seating-differs = { $sheet } (Runde { $round }, Tisch { $table }): auf dem Blatt { $read }, gelost { $drawn }; Platztausch, Ersatzspieler oder falsch gelesen: bitte prüfen
check-sheet-discarded = { $sheet } ist verworfen ({ $by }: { $reason }): es gehört nicht zum Abend
check-sheet-void = { $sheet } ist von { $by } für ungültig erklärt ({ $reason }): die Punkte seiner Spieler in dieser Runde zählen 0
check-sheet-twice = { $second } sagt dasselbe wie { $first }: dasselbe Blatt noch einmal gescannt oder fotografiert, mit anderer Runde oder anderem Tisch gelesen; es zählt einmal, bis jemand entscheidet: das Doppel verwerfen
check-sheet-twice-same = { $first } kam zweimal: dasselbe Blatt noch einmal gescannt oder fotografiert; es zählt einmal, bis jemand entscheidet: das Doppel verwerfen
sheet-round-table = R{ $round } T{ $table }
check-sheets-in-doubt = vorläufig: { $count ->
        [one] ein Blatt ist
       *[other] { $count } Blätter sind
    } noch durchzusehen ({ $sheets })
check-rows-copied = { $first } und { $second } haben { $rows } Spielzeilen hintereinander gleich: von einem anderen Tisch abgeschrieben? Beide Blätter prüfen
check-not-drawn = kein solcher Tisch
hint-same-player = {" "}(vielleicht derselbe wie Spieler { $players }, nur dort gesehen)
hint-registered = {" "}(vielleicht der angemeldete Spieler { $players }, auf keinem Blatt)
hint-read-as = {" "}(vielleicht gelesen als { $players }, nicht angemeldet)
or = {" "}oder{" "}

## Markierungen: was ein Blatt falsch hat
code-ROW_NOT_ZERO_SUM = Zeile ergibt nicht 0
code-ROW_ILLEGAL_VALUES = kein Spiel des Tarifs
code-ROW_SEAT_BOTH = Platz mit + und −
code-ROW_SEAT_EMPTY = Platz leer
code-FIRST_GAME_RESTRICTED = im ersten Spiel nicht erlaubt
code-TOUT_NOT_INITIALLED = Tout ohne Kürzel
code-CORRECTION_NOT_INITIALLED = Korrektur ohne Kürzel
code-SOLO_NOT_CIRCLED = Solo nicht eingekreist
code-CIRCLE_NOT_SOLO = Kreis ohne Solo
code-GESAMT_MISMATCH = Gesamt stimmt nicht
code-ABZUG_MISMATCH = Abzug stimmt nicht
code-ENDERGEBNIS_MISMATCH = Endergebnis stimmt nicht
code-ENDERGEBNIS_NOT_ZERO = Endergebnisse ergeben nicht 0
code-GAME_COUNT = Zahl der Spiele
code-PFLICHTSOLO_MISSING = Pflichtsolo fehlt
code-SIGNATURE_MISSING = Unterschrift fehlt
code-PLAYER_ID_MISSING = Teilnehmer-Nr. fehlt
code-INK_DIFFERS = andere Tinte
code-CELL_UNCERTAIN = unsicher gelesen
code-SHEET_UNREADABLE = Blatt nicht lesbar
code-WRONG_GAME = Blatt eines anderen Spiels
flag-nothing = nichts
flag-row-not-zero-sum = Spiel { $row }: die Zeile ergibt { $sum } statt 0.
flag-row-illegal-values = Spiel { $row }: { $values } passt zu keinem Spiel des Tarifs.
flag-row-seat-both = Spiel { $row }: bei Platz { $seat } stehen Plus und Minus.
flag-row-seat-empty = Spiel { $row }: bei Platz { $seat } fehlt der Eintrag.
flag-first-game-restricted = Spiel { $row }: { $game } ist im ersten Spiel einer Runde nicht erlaubt.
flag-tout-not-initialled = Spiel { $row }: { $game } ohne Abzeichnung der Aufsicht.
flag-correction-not-initialled = Spiel { $row }: Änderung bei Platz { $seat } ohne Abzeichnung der Aufsicht.
flag-correction-not-initialled-struck = Spiel { $row }: Änderung bei Platz { $seat } ({ $was } gestrichen, { $now } geschrieben) ohne Abzeichnung der Aufsicht.
flag-solo-not-circled = Spiel { $row }: { $game } von Platz { $seat } ist nicht eingekreist.
flag-circle-not-solo = Spiel { $row }: Kreis bei Platz { $seat }, aber Platz { $seat } spielt kein Solo.
flag-gesamt-mismatch = Platz { $seat }: Gesamt { $column ->
        [plus] Plus
       *[minus] Minus
    } ist { $written }, die Spalte ergibt { $sum }.
rows-could-explain = { $count ->
        [one] Spiel { $rows } könnte
       *[other] Spiele { $rows } könnten
    } es erklären.
flag-abzug-mismatch = Platz { $seat }: Abzug ist { $written }, die kleinere Gesamtsumme ist { $expected }.
flag-endergebnis-mismatch = Platz { $seat }: Endergebnis ist { $written }, Plus minus Minus ergibt { $expected }.
flag-endergebnis-not-zero = Die Endergebnisse ergeben zusammen { $sum } statt 0.
flag-game-count = { $counted } Spiele eingetragen, an einem { $players }er-Tisch sind es { $expected }.
flag-pflichtsolo-missing = Platz { $seat } hat in dieser Runde kein Solo gespielt (Pflichtsolo).
flag-signature-missing = Platz { $seat } hat nicht unterschrieben.
flag-player-id-missing = Platz { $seat }: die Teilnehmer-Nr. fehlt.
flag-ink-differs = { $place }: mit einem anderen Stift geschrieben als der Rest der Liste ({ $measure }); eine spätere Änderung?
ink-place-game = Spiel { $row }, Platz { $seat } ({ $field })
ink-place-footer = Platz { $seat } ({ $field })
ink-colour = Farbabstand { $by }
ink-colour-part = { $mm2 } mm² davon in anderer Farbe
ink-darker = { $percent } % dunkler, Striche { $width }-mal so breit
ink-lighter = { $percent } % heller, Striche { $width }-mal so breit
flag-sheet-unreadable = Blatt nicht lesbar: { $why }.
flag-wrong-game = Blatt eines anderen Spiels: das Formular { $form } ist für { $form_game }, der Abend wird nach { $rules } ({ $rules_game }) gewertet; es zählt nicht, bis jemand entscheidet.
flag-wrong-game-rows = Blatt eines anderen Spiels: seine Zeilen passen zum { $form_game }-Tarif und nicht zu { $rules } ({ $rules_game }); es zählt nicht, bis jemand entscheidet.
game-schafkopf = Schafkopf
game-doppelkopf = Doppelkopf

## Markierungen: was unsicher gelesen ist
field-round = Runde
field-table = Tisch
field-header-off = { $what } (der Kopf des Blatts liegt nicht, wo das Formular ihn hat)
field-player-id = Platz { $seat }: Teilnehmer-Nr.
field-game = Spiel { $row }, Platz { $seat } { $column ->
        [plus] Plus
       *[minus] Minus
    }
field-gesamt = Platz { $seat }: Gesamt { $column ->
        [plus] Plus
       *[minus] Minus
    }
field-abzug = Platz { $seat }: Abzug
field-endergebnis = Platz { $seat }: Endergebnis
uncertain = { $what }: gelesen „{ $read }“ ({ $percent } %), bitte prüfen.
uncertain-suggested = { $what }: gelesen „{ $read }“ ({ $percent } %), nach Tarif und Spaltensumme eher { $value } ({ $probability } %), bitte prüfen.
uncertain-taken = { $what }: gelesen „{ $read }“ ({ $percent } %), nach Tarif und Summen als { $value } übernommen, bitte prüfen.
uncertain-doubted = { $what }: gelesen „{ $read }“, aber Zeile und Gesamt ergeben beide { $value } ({ $probability } %): verlesen oder nach dem Zusammenzählen geändert, bitte prüfen.
uncertain-legal-row = { $what }: gelesen „{ $read }“; die Zeile ist so gültig, doch die Gesamt-Summen mehrerer Plätze passen nur, wenn hier { $value } steht: bitte die Zeile prüfen.
uncertain-poor-hand = { $what }: gelesen „{ $read }“; diese Handschrift liest sich in vielen Zellen unsicher und das Gesamt des Platzes passt nicht zur Spalte: bitte prüfen.
uncertain-explained = { $what }: gelesen „{ $read }“; die Gesamt-Summen dieser Spalten passen alle, wenn diese Handschrift hier { $value } meint: bitte prüfen.
uncertain-consequences = So gelesen heißt das auch: { $flags }
uncertain-across-side = { $what }: die Zahl läuft über die Linie in die nächste Spalte; in welcher Spalte steht sie? Bitte prüfen.
uncertain-out-of-range = { $what }: gelesen „{ $read }“, doch eine solche Nummer gibt es nicht; bitte prüfen.
uncertain-listed = {" "}Nach der Teilnehmerliste eher { $number } ({ $probability } %).
uncertain-not-listed = Platz { $seat }: Teilnehmer-Nr. gelesen „{ $number }“, steht nicht in der Teilnehmerliste, bitte prüfen.
uncertain-written-over = Platz { $seat }: gedruckt ist die Teilnehmernummer { $printed }, darüber geschrieben (gelesen „{ $read }“): Ersatzspieler oder Korrektur? Bitte prüfen.

## Warum eine Datei oder Seite nicht gelesen wird
problem-not-found = Datei nicht gefunden
problem-no-permission = keine Leseberechtigung
problem-name-too-long = der Dateiname ist für das Dateisystem zu lang
problem-disk-full = das Laufwerk ist voll
problem-read-only = das Laufwerk ist schreibgeschützt
problem-other = das Laufwerk meldet einen Fehler
unreadable-not-an-image = kein lesbares Bild (beschädigt oder unbekanntes Format)
unreadable-empty-file = leere Datei (0 Bytes): noch einmal scannen oder kopieren
unreadable-unsupported = diese Bildart wird nicht unterstützt; bitte als PNG, JPEG, TIFF oder PDF scannen
unreadable-too-large = das Bild ist zu groß ({ $size }); ein Scan mit 300 dpi genügt
unreadable-too-small = das Bild hat nur { $width }×{ $height } Pixel
unreadable-not-a-pdf = kein lesbares PDF
unreadable-pdf-without-pages = das PDF hat keine Seiten
unreadable-pdf-page-without-image = die PDF-Seite enthält kein gescanntes Bild
unreadable-pdf-stream-too-large = die Bilddaten im PDF würden entpackt mehr als { $limit } MB belegen (beschädigt oder kein Scan)
unreadable-pdf-image-broken = das Bild im PDF ist beschädigt
unreadable-tiff-page = Seite { $page } von { $pages } einer mehrseitigen TIFF-Datei wird nicht gelesen: als PDF oder eine Datei je Seite scannen
unreadable-no-table = keine linierte Tabelle auf der Seite gefunden
unreadable-table-mismatch = die linierte Tabelle passt nicht zum Formular
unreadable-other-form = die Seite passt nicht zum Formular { $form } (nur { $percent } % seiner Linien gefunden)
unreadable-other-print = die Seite ist nicht das Formular { $form }: seine Linien passen nur zum Teil ({ $percent } %), Titel und Zeilennummern stehen nicht, wo das Formular sie druckt
unreadable-internal = interner Fehler beim Lesen ({ $what }), bitte mit dieser Datei melden
unreadable-set-aside = das gespeicherte Ergebnis lässt sich nicht zurücklesen ({ $why }); das Blatt bleibt beiseite, bis es neu gelesen oder verworfen wird
passed-not-a-scan = übersprungen (kein Bild und kein PDF)
passed-not-a-regular-file = übersprungen (keine gewöhnliche Datei, sondern { $what })
passed-again = übersprungen (Verweis auf schon Gelesenes)
passed-unreadable = nicht gelesen: { $problem }

## Die Prüfstelle (review --serve) und ihre Änderungen
edit-bad-path = { $path }: kein Wert auf einem Blatt (games/NR/PLATZ/plus|minus, gesamt/PLATZ/plus|minus, abzug/PLATZ, endergebnis/PLATZ, players/PLATZ, round, table)
edit-bad-seat = { $path }: das Blatt hat { $seats } Plätze
edit-bad-unsigned = { $path }: { $value } ist keine Zahl ab 0 (oder leer)
edit-bad-signed = { $path }: { $value } ist keine ganze Zahl (oder leer)
edit-bad-digits = { $path }: { $value } ist keine Teilnehmer-Nr. aus 1 bis 6 Ziffern (oder leer)
edit-stale = Blatt { $id } wurde inzwischen geändert (jetzt Stand { $now }, bearbeitet wurde Stand { $yours }): neu laden und erneut korrigieren
edit-no-values = keine Werte zu setzen: {"{"}"by": NAME, "values": [{"{"}"path": P, "value": V{"}"}]{"}"} senden
edit-bad-body = die Anfrage ist nicht das erwartete JSON: { $problem }
json-unknown-field = das Feld „{ $field }“ gibt es hier nicht
json-missing-field = es fehlt das Feld „{ $field }“
json-wrong-kind = ein Wert hat die falsche Art (Zeile { $line }, Spalte { $column })
json-not-json = kein JSON (Zeile { $line }, Spalte { $column })
http-not-found = diese Adresse gibt es bei der Prüfstelle nicht
http-method = diese Adresse nimmt eine solche Anfrage nicht an
http-too-large = die Sendung ist zu groß
http-media-type = die Anfrage hat nicht die erwartete Art (JSON oder ein Formular mit Dateien)
http-bad-request = die Anfrage ist nicht lesbar
http-failed = die Prüfstelle konnte das nicht ausführen; bitte noch einmal versuchen
serve-no-sheet = Blatt { $id } gibt es in diesem Archiv nicht
serve-audit-whom = Wessen Prüfung? ?player=NUMMER oder ?sheet=ID angeben
serve-no-image = der Scan von Blatt { $id } liegt nicht mehr dort, wo er gelesen wurde ({ $source })
serve-forbidden-origin = abgelehnt: die Anfrage kommt von einer anderen Seite ({ $origin })
serve-foreign-host = abgelehnt: „{ $host }“ ist nicht der Name dieser Prüfstelle (weitere Namen mit --host)
serve-token-needed = diese Adresse braucht den Zugangsschlüssel der Prüfstelle: am Handy den QR-Code der Prüfstelle neu scannen, am Rechner den Link öffnen, den die Prüfstelle beim Start nennt
serve-phone-only = der Schlüssel des Handys öffnet nur die Aufnahme und das Senden von Scans an seinen Abend
serve-made-archive = Archiv { $path } neu angelegt, mit dem Abend „{ $night }“ ({ $rules })
serve-made-night = Abend „{ $night }“ ({ $rules }) in { $path } neu angelegt
serve-no-night = diesen Abend (Nr. { $id }) gibt es im Archiv nicht
serve-listening = Prüfstelle unter { $url } (Strg-C beendet sie)
serve-token = von einem anderen Rechner: { $url }
serve-bind = kann nicht auf { $addr } lauschen: { $problem }
serve-loopback-only = --listen { $addr } ist von anderen Rechnern erreichbar: sie kommen nur mit dem ausgegebenen Schlüssel hinein
serve-stopped = Prüfstelle beendet; jede Korrektur steht in { $path }
desk-title = Prüfstelle
desk-queue = Blätter zur Durchsicht
desk-standings = Zwischenstand
desk-ranking = Endergebnis
desk-writers = Schreiber
desk-export-csv = CSV herunterladen
desk-print = Drucken
desk-reviewer = Prüfer
desk-help = Enter übernimmt den Vorschlag · Ziffern und Enter tippen einen Wert · „-“ oder Entf macht ihn leer · Strg-Z nimmt die letzte Änderung zurück · K lässt ihn wie geschrieben · Tab und Pfeile bewegen · Bild ab: nächstes Blatt · Z zoomt das Blatt
desk-reading = gelesen
desk-suggestion = Vorschlag
desk-alternatives = Alternativen
desk-kept = wie geschrieben belassen
desk-saved = gespeichert
desk-no-flags = auf diesem Blatt ist nichts zu prüfen
desk-all-done = alle Blätter sind durchgesehen
desk-name-first = zuerst den eigenen Namen eingeben
desk-no-such-form = Das Formular { $form } kennt die Prüfstelle nicht.
desk-scan-not-kept = Das Archiv hat den Scan dieses Blatts nicht: er kann nicht noch einmal gelesen werden.
desk-flags = Markierungen
desk-initial = Zeile abzeichnen:
desk-initialled = abgezeichnet, Zeile
desk-take-back = zurücknehmen
desk-void = Blatt für ungültig erklären
desk-void-reason = Begründung
desk-voided = für ungültig erklärt
desk-unvoid = wieder gültig
desk-rank = Platz
desk-player = Spieler
desk-total = Punkte
desk-provisional = (vorläufig)
desk-in-doubt = Blatt dieses Spielers noch in Prüfung
desk-checks = Prüfungen des Abends
desk-round-column = Runde
desk-checks-open = vorläufig: { $count ->
        [one] eine Prüfung offen
       *[other] { $count } Prüfungen offen
    }
desk-spreadsheet-file = Rangliste
desk-export-csv-de = Tabelle für Excel/LibreOffice (CSV)

## scan --watch
watch-start = beobachte { $path }: jeder Scan wird gelesen, sobald er ankommt; Strg-C beendet
watch-file = { $file }: { $sheets ->
    [one] { $sheets } Blatt
   *[other] { $sheets } Blätter
}, { $flagged } markiert oder unlesbar
watch-stopping = beende: die angefangenen Dateien werden noch fertig gelesen (nochmals Strg-C beendet sofort)
watch-not-folder = --watch { $path }: kein Ordner: den Ordner angeben, in den der Scanner schreibt
power-no-row = Das Blatt hat keine Spielzeile { $row }
power-no-field = das Blatt hat am Platz { $seat } kein Fußfeld „{ $field }“ (plus, minus, abzug oder endergebnis)
power-row-or-field = Abzeichnen nennt eine Spielzeile („row“) oder ein Fußfeld („seat“ und „field“), eines von beiden
power-copy-of-itself = ein Blatt ist keine Kopie seiner selbst
power-copy-other-night = Blatt { $of } gehört zu einem anderen Abend: eine Kopie ist es nur von einem Blatt desselben Abends
power-no-reason = Ein Blatt wird nur mit Begründung für ungültig erklärt
scan-changed = Die Scan-Datei hat sich geändert, seit diese Werte aus ihr gelesen wurden: kein Ausschnitt wird gezeigt.
audit-title-player = Prüfung: Teilnehmer { $player }
audit-title-sheet = Prüfung eines Blattes
audit-standings = Stand in der Wertung
audit-sheet = Runde { $round }, Tisch { $table }: { $source } (Blatt { $id })
audit-void = Für ungültig erklärt von { $by } am { $at }: { $reason }
audit-discarded = Verworfen von { $by } am { $at }: { $reason }; es zählt nicht
audit-row = Zeile
audit-crop = Ausschnitt
audit-read = gelesen
audit-sure = sicher
audit-sum = Summe
audit-game = Spiel
audit-initials = Aufs.
audit-seat = Platz
audit-gesamt-plus = Gesamt Plus
audit-gesamt-minus = Gesamt Minus
audit-abzug = Abzug
audit-endergebnis = Endergebnis
audit-footer-note = Je Feld: geschrieben / aus den Spielzeilen.
audit-flags = Hinweise
audit-changes = Änderungen
audit-no-changes = keine Änderung seit dem Scan
audit-kind = Art
audit-field = Feld
audit-old = alt
audit-new = neu
audit-by = von
audit-at = wann
change-kind-reading = gelesen
change-kind-paper = Wert vom Papier
change-kind-counts = gilt stattdessen
change-kind-initials = Kürzel
change-kind-void = ungültig erklärt
change-kind-copy = Kopie
change-kind-game = Spiel
change-kind-discard = verworfen
change-kind-withdraw = Antwort zurückgenommen
change-kind-form = Formular
audit-moved = Gesamtpunkte
season-club = Die Vereinsdatei { $path } ist nicht lesbar ([season] best = N, min_nights = M)
season-title = Jahreswertung

# Column heads of the pages (the CSVs keep the column names).
column-rank = Platz
column-player = Teilnehmer
column-name = Name
column-total = Punkte
column-qualified = Qualifiziert
column-provisional = vorläufig bei
column-nights = Abende
column-round = Runde { $n }
column-review = Zu prüfen
column-status = Stand
standings-provisional = vorläufig
standings-final = Endergebnis
column-tout_won = Tout gewonnen
column-tout_played = Tout gespielt
column-solo_won = Solo gewonnen
column-solo_played = Solo gespielt
column-sie_played = Sie gespielt
column-round_difference = Rundendifferenz
audit-season = Jahreswertung
audit-night = Abend: { $night }
desk-night = Abend
audit-accepted = angenommen von { $by } am { $at }
load-members = Die Mitgliederliste { $path } ist nicht lesbar
desk-players = Am Tisch

# Die Durchsichtsseite.
review-summary = { $sheets ->
    [one] 1 Blatt
   *[other] { $sheets } Blätter
}: { $flagged } markiert, { $unreadable } unlesbar, { $ok } in Ordnung. Markierte Blätter zuerst. Einen Wert ändern und „Berichtigtes JSON speichern“ drücken; dann ausführen:
review-save = Berichtigtes JSON speichern
review-whole = ganzes Blatt, markierte Felder umrandet
review-heading = { $source } — Runde { $round }, Tisch { $table } — { $status }
review-status-ok = in Ordnung
review-status-flagged = markiert
review-status-unreadable = unlesbar
review-players = Spieler: { $players }; { $flags ->
    [one] 1 Markierung
   *[other] { $flags } Markierungen
}
review-no-image = Der Scan ließ sich nicht öffnen ({ $source }): mit dem Papierblatt vergleichen.
review-as-read = Wenn die unsicheren Felder so stimmen, wie gelesen:
review-taken = Anders gelesen, genommen, wie Zeile und Spalte es verlangen:
review-rings = Ein dort gesehener Kreis war die eigene Schleife der Zahl, wie geschrieben gelesen und nicht eingekreist (den Kreis prüfen):
review-read = gelesen „{ $reading }“ ({ $percent } %)
review-alternatives = andere Lesarten: { $list }
review-alternative = „{ $reading }“ { $percent } %
review-suggested = Vorschlag: { $value } ({ $percent } %)
review-taken-as = genommen als { $value } ({ $percent } %)
review-taken-line = Spiel { $row }, Platz { $seat } { $column }: gelesen { $read }, genommen als { $value }
review-ring-line = Spiel { $row }, Platz { $seat }: { $value }
review-not-whole = Keine ganze Zahl:
cell-in-row = Zeile { $row }, Platz { $seat }, { $column }
cell-of-seat = Platz { $seat }, { $label }
cell-row = Zeile { $row }
cell-signature = Unterschrift
cell-round = Runde
cell-table = Tisch
cell-endergebnis-line = Endergebnis-Zeile

# The command line
cli-missing = Es fehlt: { $args }.
cli-missing-or-archive = Es fehlt: { $args } oder --archive ARCHIV.
cli-unknown = Unbekannte Angabe: { $arg }.
cli-unknown-command = Unbekannter Befehl: { $command }.
cli-did-you-mean = Meinten Sie { $arg }?
cli-no-command = Welcher Befehl? Etwa: aufsicht scan --rules merkur --out ergebnisse/ scans/
cli-bad-value = { $arg }: „{ $value }“ geht hier nicht.
cli-bad-value-of = { $arg }: „{ $value }“ geht hier nicht; möglich: { $valid }.
cli-conflict = { $arg } geht nicht zusammen mit { $other }.
cli-too-many = Ein Wert zu viel: „{ $value }“.
cli-other = Aufruf nicht verstanden.
cli-help = Hilfe: { $help }
written-to = geschrieben: { $path }
review-default-title = Durchsicht des Abends
season-unranked = { $count ->
        [one] 1 Spieler ohne Rang
       *[other] { $count } Spieler ohne Rang
    }: ein Rang braucht mindestens { $least ->
        [one] 1 Abend
       *[other] { $least } Abende
    } (min_nights in der Vereinsdatei)

## Die Hilfe der Kommandozeile (jeder Befehl und jede Option; ein Beispiel je Befehl).
help-word-example = Beispiel:
help-heading-usage = Aufruf:
help-heading-options = Optionen
help-heading-arguments = Argumente
help-heading-commands = Befehle
help-value-command = BEFEHL
help-value-rules = REGELWERK
help-value-lang = SPRACHE
help-value-out = AUSGABE
help-value-archive = ARCHIV
help-value-tournament = ABEND
help-value-participants = LISTE
help-value-sheet = BLATT
help-value-seating = SITZPLAN
help-value-form = FORMULAR
help-value-club = VEREIN
help-value-writer_seat = PLATZ
help-value-what = WAS
help-value-to = BIS
help-value-central = ZENTRALARCHIV
help-value-venue = SPIELORT
help-value-from = VON
help-value-format = FORMAT
help-value-date = DATUM
help-value-by = KÜRZEL
help-value-watch = ORDNER
help-value-title = TITEL
help-value-seed = STARTWERT
help-value-rounds = RUNDEN
help-value-round = RUNDE
help-value-reader = LESER
help-value-player = TEILNEHMER
help-value-page = SEITE
help-value-newest = ORDNER
help-value-listen = ADRESSE
help-value-hosts = NAME
help-value-hall = SAAL
help-value-forms = ORDNER
help-value-dpi = DPI
help-value-checks = DATEI
help-value-inputs = EINGABEN
help-value-dirs = ORDNER
help-flag-help = Hilfe zeigen
help-flag-version = Version zeigen
help = Liest und prüft Punktelisten von Schafkopf- und Doppelkopfturnieren
help--lang = Sprache der Meldungen und Seiten: de oder en; auch AUFSICHT_LANG
help-scan = Gescannte Listen lesen (Bilder, PDFs, Ordner) und je Liste ein Ergebnis-JSON schreiben
help-scan-example = aufsicht scan --rules merkur --participants liste.csv --archive verein.sqlite --out runde1/ scans/
help-scan--rules = Regelwerk (merkur, schwaig, turnier30, laufende, doppelkopf) oder der Pfad einer Regeldatei
help-scan--form = Formular (punkteliste-a4-32, doko-a4-24x5) oder der Pfad einer Vorlage; ohne Angabe erkannt
help-scan--forms = Ein Ordner mit eigenen Formularvorlagen (*.json): jede Seite wird unter ihnen und den mitgelieferten erkannt
help-scan--out = Ordner für die Ergebnisse
help-scan--reader = Wer die handgeschriebenen Ziffern liest: das trainierte Ziffernmodell (cnn) oder Tesseracts ältere Engine mit Ziffernliste (tesseract)
help-scan--archive = Das Archiv (SQLite), in das die Listen kommen; Vorgabe: aufsicht.sqlite in --out
help-scan--tournament = Der Name des Turniers im Archiv; Vorgabe: der Name von --out
help-scan--date = Das Datum des Abends (JJJJ-MM-TT), mit dem Turnier für die Jahreswertung gespeichert
help-scan--no_archive = Nicht archivieren (nur Ergebnisse und summary.csv)
help-scan--participants = Die angemeldeten Teilnehmer-Nr. des Abends (eine je Zeile, oder eine CSV mit ihnen in der ersten Spalte): die Teilnehmer-Nr. der Listen werden daran geprüft
help-scan--watch = Jede Datei lesen, sobald der Scanner sie in diesen Ordner legt, bis Strg-C (die Datei in Arbeit wird noch fertig gelesen)
help-scan--reread = Die Dateien, die das Archiv schon hat, noch einmal lesen (etwa mit --form): ihre Listen werden ersetzt, jeder geänderte Wert steht mit --by in der Spur
help-scan--by = Wer noch einmal liest (Kürzel), für die Spur
help-scan--inputs = Die Scans: Bilder (JPEG, PNG, TIFF), PDFs und Ordner davon
help-verify = Jede Meldung eines Listenergebnisses neu berechnen und es als JSON ausgeben
help-verify-example = aufsicht verify --rules merkur runde1/tisch07.json
help-verify--rules = Regelwerk oder der Pfad einer Regeldatei
help-verify--sheet = Ein Listenergebnis (JSON, Schema aufsicht/sheet-v1)
help-draw = Tische und Plätze jeder Runde für die Angemeldeten auslosen (Sitzplan als CSV: round,table,seat,player)
help-draw-example = aufsicht draw --rules merkur --participants liste.csv --out sitzplan.csv
help-draw--rules = Regelwerk oder der Pfad einer Regeldatei (seine Runden und Tischgrößen)
help-draw--participants = Die Angemeldeten: eine CSV mit den Spalten number und name (weitere Spalten bleiben erhalten) oder eine Nummer je Zeile
help-draw--out = Wohin der Sitzplan kommt (CSV: round,table,seat,player)
help-draw--rounds = Wie viele Runden ausgelost werden (Vorgabe: die des Regelwerks)
help-draw--seed = Derselbe Startwert gibt dieselbe Auslosung (Vorgabe: ein neuer, er wird ausgegeben)
help-draw--hall = Auch die Papiere für den Saal schreiben (PDF): die Tischliste jeder Runde und je Spieler einen Zettel mit Tisch und Platz jeder Runde
help-draw--tournament = Der Name des Turniers, wie er über den Papieren des Saals steht
help-print = Je ausgelostem Tisch und Runde eine Liste drucken, mit ihren Spielern und einem Code, den `scan` liest (PDF mit 300 dpi)
help-print-example = aufsicht print --rules merkur --seating sitzplan.csv --participants liste.csv --out listen.pdf
help-print--rules = Regelwerk oder der Pfad einer Regeldatei
help-print--seating = Der Sitzplan, den `draw` geschrieben hat (CSV: round,table,seat,player)
help-print--participants = Die Angemeldeten (für ihre Namen)
help-print--out = Wohin die Listen kommen (PDF, eine Seite je Tisch und Runde)
help-print--form = Das Formular, auf das gedruckt wird (Vorgabe: das eingebaute des Spiels im Regelwerk)
help-print--round = Nur diese Runde drucken
help-print--tournament = Der Name des Turniers; der Code trägt sein Kennzeichen, so werden Listen eines anderen Abends erkannt
help-standings = Die Spieler des Abends aus den Listenergebnissen in DIRS reihen (CSV auf die Standardausgabe)
help-standings-example = aufsicht standings --rules merkur --archive verein.sqlite > rangliste.csv
help-standings--rules = Regelwerk oder der Pfad einer Regeldatei (seine Stechen ordnen gleiche Summen)
help-standings--checks = Wohin die Prüfungen des Abends kommen (CSV); Vorgabe: standings-checks.csv im ersten Ordner oder neben dem Archiv
help-standings--participants = Die angemeldeten Teilnehmer-Nr. des Abends: Nummern, die niemand angemeldet hat, und Angemeldete ohne Liste werden zu Prüfungen des Abends
help-standings--seating = Der Sitzplan des Abends (`draw`): ausgeloste Tische ohne Liste und Listen, deren Spieler oder Plätze nicht die ausgelosten sind, werden zu Prüfungen des Abends
help-standings--archive = Ein Abend dieses Archivs statt Ordnern voller Ergebnisse: die Listen, wie sie dort stehen, mit Korrekturen und Entscheidungen
help-standings--tournament = Der Abend in --archive, nach Name oder Datum (JJJJ-MM-TT); darf fehlen, wenn das Archiv nur einen hat
help-standings--dirs = Ordner mit Listenergebnissen (*.json), etwa einer je Runde
help-writers = Das Buch der Schreiber: je Schreiber die Fehler seiner Listen, wessen Punkte sie verschoben, und ob sie öfter zu eigenen Gunsten fallen, als der Zufall es täte (JSON oder CSV)
help-writers-example = aufsicht writers --rules merkur --archive verein.sqlite --format csv --out schreiber.csv
help-writers--rules = Regelwerk oder der Pfad einer Regeldatei
help-writers--format = json (Vorgabe) oder csv
help-writers--out = Die Datei, in die geschrieben wird (Vorgabe: die Standardausgabe)
help-writers--writer_seat = Der Platz des Schreibers, wo der Verein einen anderen als den ersten nennt
help-writers--archive = Die Abende dieses Archivs statt Ordnern: die Listen, wie sie dort stehen, mit Korrekturen und Entscheidungen
help-writers--tournament = Ein Abend in --archive (nach Name oder Datum); ohne es alle
help-writers--dirs = Ordner mit getippten Listen oder Ergebnissen (*.json), einer je Abend
help-writers--club = Die Vereinsdatei (`[writers] seat = N`: der Platz des Schreibers)
help-writers--seating = Der Sitzplan (`draw`): seine Spalte `writer` nennt den Schreiber jedes Tisches, wo er eine hat
writers-flagged = Schreiber { $player }: auffällig: { $favouring } von { $errors } Fehlern zu eigenen Gunsten, { $points } Punkte (p = { $p })
writers-not-flagged = Schreiber { $player }: { $favouring } von { $errors } Fehlern zu eigenen Gunsten, { $points } Punkte (p = { $p }): nicht auffällig
writers-page-title = Die Schreiber: { $what }
writers-page-season = die ganze Saison
writers-page-help = Je Schreiber die Fehler seiner Listen, die sicher sind (keine Lesung im Zweifel), und wessen Punkte sie verschoben. p ist die Wahrscheinlichkeit, dass so viele oder mehr Fehler zufällig dem Schreiber selbst nützen; auffällig heißt p unter 0,01 bei mindestens drei Fehlern.
writers-page-writer = Schreiber { $player }
writers-page-seat = Als Schreiber einer Liste gilt, wer auf Platz { $seat } sitzt, wo der Sitzplan für einen Tisch keinen anderen Platz nennt.
writers-unflagged-word = unauffällig
writers-chance = So einseitig nur etwa 1 von { $n } Mal durch Zufall.
writers-chance-rarer = So einseitig seltener als 1 von { $n } Mal durch Zufall.
writers-chance-often = So einseitig auch oft durch Zufall.
writers-col-player = Schreiber
writers-col-sheets = Listen
writers-col-errors = Fehler
writers-col-favouring = zu eigenen Gunsten
writers-col-self = Punkte für sich
writers-col-partners = für die anderen
writers-col-others = gegen die anderen
writers-col-flagged = Befund
writers-flagged-word = auffällig
writers-col-night = Abend
writers-col-sheet = Liste
writers-col-round = Runde
writers-col-table = Tisch
writers-col-seat = Platz
writers-col-written = geschrieben
writers-col-computed = aus den Zeilen
writers-col-moved = verschoben
help-season = Die Jahreswertung des Vereins über die Abende des Archivs (CSV auf die Standardausgabe)
help-season-example = aufsicht season --archive verein.sqlite --club verein.toml --page saison.html
help-season--archive = Das Archiv des Vereins (was `scan --archive` füllt)
help-season--from = Das Datum des ersten gezählten Abends (JJJJ-MM-TT)
help-season--to = Das Datum des letzten gezählten Abends (JJJJ-MM-TT)
help-season--club = Die Datei des Vereins: `[season] best = N`, `min_nights = M`, `qualify = K`
help-season--page = Die Tabelle auch als Seite zum Drucken schreiben (HTML)
help-season--format = csv: die CSV des Vertrags; csv-de: für eine Tabellenkalkulation auf Deutsch (Semikolon, BOM, deutsche Spaltenköpfe, die Namen)
help-export = Einen archivierten Abend wieder ausgeben: je Liste ein JSON des Vertrags und values.csv
help-export-example = aufsicht export --archive verein.sqlite --out export/
help-export--archive = Das Archiv des Vereins (was `scan --archive` füllt)
help-export--tournament = Der Abend, nach Name oder Datum (JJJJ-MM-TT); darf fehlen, wenn das Archiv nur einen hat
help-export--out = Der Ordner für die JSONs der Listen und values.csv (wird angelegt, wenn er fehlt)
help-export--season = Jeden Abend des Archivs, jeden in einem eigenen Ordner, mit `nights.csv`, die sie nennt (docs/night.md)
help-export--from = Mit --season: das Datum des ersten Abends (JJJJ-MM-TT)
help-export--to = Mit --season: das Datum des letzten Abends (JJJJ-MM-TT)
help-push = Die Abende eines Spielorts ins zentrale Archiv einer Serie (PostgreSQL) senden: nur was dort fehlt, immer wieder, wenn am Spielort mehr entschieden wurde
help-push-example = aufsicht push --archive post.sqlite --to postgres://cup@server/cup --venue "Gasthof Post"
help-push--archive = Das Archiv des Spielorts (wird nur gelesen)
help-push--central = Das zentrale Archiv: postgres://BENUTZER@RECHNER[:PORT]/DATENBANK
help-push--venue = Der Spielort, unter dem die Abende dort stehen (Vorgabe: der Name der Archivdatei ohne Endung)
help-push--tournament = Nur dieser Abend, nach Name oder Datum (JJJJ-MM-TT)
help-correct = Ein von Hand berichtigtes Listenergebnis ins Archiv übernehmen: neu geprüft, jeder geänderte Wert mit wer und wann festgehalten; gibt das neue Ergebnis aus
help-correct-example = aufsicht correct --archive verein.sqlite --by AB tisch07.json
help-correct--archive = Das Archiv des Vereins, in das die Liste gescannt wurde
help-correct--tournament = Der Abend, nach Name oder Datum; darf fehlen, wenn das Archiv nur einen hat
help-correct--rules = Regelwerk oder der Pfad einer Regeldatei (Vorgabe: das, mit dem die Liste gescannt wurde, wie das Archiv es kennt)
help-correct--by = Wer berichtigt hat (Name oder Kürzel), für die Spur im Archiv
help-correct--counts = Die geänderten Werte gelten, wo der Schreiber sich geirrt hat (Entscheidung der Leitung), nicht was auf dem Papier steht; braucht --reason
help-correct--reason = Warum die gezählten Werte gelten (mit --counts)
help-correct--confirm = Ein Wert (endergebnis/2, games/5/1/plus), den das Papier so sagt, wie das Blatt ihn gibt, auch unverändert: sein Zweifel ist damit erledigt
help-value-confirm = PFAD
help-value-reason = BEGRÜNDUNG
help-value-blank = LEERES-BLATT
help-value-dest = ZIEL
help-value-dir = ORDNER
help-value-games = SPIELE
help-value-scan = SCAN
help-value-seats = PLÄTZE
correct-bad-path = „{ $path }“ ist kein Wert eines Blatts (etwa endergebnis/2 oder games/5/1/plus)
help-correct--sheet = Das berichtigte Listenergebnis (das JSON eines Scans, bearbeitet)
help-archive = Die Pflege des Archivs: `archive backup DATEI ZIEL` kopiert es auch während der Arbeit
help-archive-example = aufsicht archive backup verein.sqlite sicherung.sqlite
help-archive-backup = Ein stimmiges Archiv kopieren, während die Prüfstelle oder ein Scan es nutzt (SQLites Online-Sicherung; die Kopie erscheint ganz oder gar nicht)
help-archive-backup--archive = Das Archiv
help-archive-backup--dest = Die Kopie (wird ersetzt)
help-archive-check = Jeden gespeicherten Scan an seinem Hash prüfen und jedes gespeicherte Ergebnis an Hash und Werten; schlägt fehl, wenn etwas verändert wurde
help-archive-check--archive = Das Archiv
help-audit = Der Abend eines Spielers (jede Liste, an der er saß) oder eine Liste, aus dem Archiv: Ausschnitte, Lesungen, Rechnung und jede Änderung (HTML oder JSON)
help-audit-example = aufsicht audit --archive verein.sqlite --player 417 --out 417.html
help-audit--archive = Das Archiv des Vereins (was `scan --archive` füllt)
help-audit--player = Die Teilnehmer-Nr., deren Abend geprüft wird (jede Liste, an der sie saß)
help-audit--sheet = Die Archivnummer der geprüften Liste (wie die Prüfstelle sie zeigt)
help-audit--writers = Statt eines Spielers oder einer Liste: das Buch der Schreiber (die Saison, oder der Abend aus --tournament) als Seite
help-audit--writer_seat = Mit --writers: der Platz des Schreibers, wo der Verein einen anderen als den ersten nennt
help-audit--tournament = Ein Abend, nach Name oder Datum; ohne Angabe umfasst die Prüfung eines Spielers jeden Abend, den er gespielt hat, und eine Liste wird in jedem Abend gefunden
help-audit--rules = Das Regelwerk, nach dem ein Abend gereiht wird (der Abend, den --tournament nennt, oder der einzige des Archivs); Vorgabe: das, mit dem gescannt wurde
help-audit--club = Die Datei des Vereins (`[season]`): die Zeile der Jahreswertung nach seiner Regel
help-audit--format = Eine Seite zum Drucken und Lesen (html) oder die Prüfung als Daten (json)
help-audit--out = Die Datei, in die die Prüfung geschrieben wird
help-review = Die Prüfseite des Abends schreiben: eine in sich geschlossene HTML-Datei, Listen mit Meldungen zuerst
help-review-example = aufsicht review --serve --archive verein.sqlite
help-review--out = Die HTML-Datei, die geschrieben wird (die Seite ohne Server)
help-review--title = Der Titel der Seite (Vorgabe: die Prüfung des Abends, in der Sprache des Aufrufs)
help-review--serve = Stattdessen die Prüfstelle über dem Archiv anbieten: eine Webanwendung auf diesem Rechner, deren Korrekturen sofort im Archiv landen
help-review--listen = Wo die Prüfstelle lauscht: nur dieser Rechner, wenn nichts anderes gesagt ist (eine andere Adresse braucht den Schlüssel, den sie ausgibt)
help-review--archive = Das Archiv des Abends (was `scan --archive` gefüllt hat)
help-review--rules = Regelwerk oder der Pfad einer Regeldatei, um berichtigte Listen zu prüfen (Vorgabe: das, mit dem der Abend gescannt wurde, wie das Archiv es kennt)
help-review--participants = Die Angemeldeten des Abends: ihre Namen neben den Nummern und (an der Prüfstelle) die Prüfungen der Rangliste
help-review--seating = Der Sitzplan des Abends (`draw`), für die Prüfungen der Rangliste
help-review--tournament = Der Name des Turniers; darf fehlen, wenn das Archiv nur eines hat. Mit --rules legt die Prüfstelle einen Abend (und ein Archiv), den es noch nicht gibt, neu an: ein Abend nur vom Handy
help-review--club = Die Datei des Vereins: die Regel der Jahreswertung (`[season]`) für die Prüfung eines Spielers über alle Abende, die Namen der Mitgliederliste auf jeder Seite
help-review--dirs = Ordner mit Listenergebnissen (*.json), deren Scans noch dort liegen, wo sie gelesen wurden
help-render-form = Ein leeres Formular zum Drucken zeichnen (PNG oder PDF, nach der Endung der Datei)
help-render-form-example = aufsicht render-form --form punkteliste-a4-32 --out leer.pdf
help-render-form--form = Formular (punkteliste-a4-32, doko-a4-24x5) oder der Pfad einer Vorlage
help-render-form--dpi = Punkte je Zoll der gezeichneten Seite (50 bis 1200)
help-render-form--out = Die Datei, die geschrieben wird: PNG oder PDF, nach ihrer Endung
help-generate = Die Man-Page oder die Vervollständigung einer Shell auf die Standardausgabe schreiben
help-generate-example = aufsicht generate man | gzip > aufsicht.1.gz
help-generate--what = Was auf die Standardausgabe geschrieben wird
help-install-path = Für das Windows-Installationsprogramm: einen Ordner in den PATH des Rechners aufnehmen oder daraus entfernen, jeder andere Eintrag bleibt
help-install-path-example = aufsicht install-path add "C:\Program Files\aufsicht"
help-install-path--change = add (aufnehmen) oder remove (entfernen)
help-install-path--dir = Der Ordner
install-path-failed = Der PATH des Rechners ließ sich nicht ändern: { $problem }
install-path-windows-only = install-path ändert den PATH eines Windows-Rechners; hier gibt es keinen.
help-default = Vorgabe: { $value }
help-possible = möglich: { $values }
help-options = OPTIONEN
help-review--hosts = Ein Name, unter dem die Prüfstelle erreicht wird (im Netz des Vereins oder über einen Proxy); Adressen und localhost gelten immer, jeder andere Name wird abgelehnt
help-review--behind_proxy = Ein Proxy (TLS) auf diesem Rechner leitet zur Prüfstelle: jeder braucht den Schlüssel, und der https://-Ursprung des Proxys gilt als der der Prüfstelle
serve-no-archive-in = kein Archiv (*.sqlite) in { $path }
serve-no-browser = der Browser ließ sich nicht öffnen ({ $problem }); bitte { $url } selbst öffnen
help-review--newest = Statt --archive: das neueste Archiv (*.sqlite) in diesem Ordner (der Eintrag im Startmenü unter Windows)
help-review--open = Die Prüfstelle im Standardbrowser öffnen, sobald sie lauscht
help-review--date = Das Datum des Abends (3.10.2026 oder 2026-10-03), wo die Prüfstelle ihn anlegt
scans-bad-request = die Sendung ist nicht lesbar (kein vollständiges Formular mit Dateien)
scans-request-too-large = die Sendung ist größer als { $mb } MB: weniger Fotos auf einmal senden
scans-busy = gerade werden schon mehrere Sendungen gelesen: bitte gleich noch einmal senden
scans-other-night = dieser Schlüssel gehört zu einem anderen Abend als „{ $night }“
scans-not-kept = die Datei konnte in { $folder } nicht gespeichert werden: nichts davon ist gespeichert
scans-too-many = höchstens { $count } Dateien auf einmal
scans-too-large = größer als { $mb } MB: nicht angenommen
scans-not-a-scan = kein Bild (JPEG, PNG, TIFF) und kein PDF: nicht angenommen
scans-empty = leere Datei (0 Bytes): nicht angenommen; das Foto noch einmal senden
scans-no-receipt = nur wer ein Foto gesendet hat, kann es zurücknehmen
scans-decided = die Prüfstelle hat über dieses Blatt schon entschieden: dort zurücknehmen
scans-phone = Handy
scans-taken-back = vom Handy zurückgenommen
scans-taken-back-said = zurückgenommen: es zählt nicht
sent-at = Runde { $round }, Tisch { $table }
sent-unknown = ?
sent-read = gelesen, alles stimmt
sent-to-check = gelesen, { $count ->
        [one] eine Stelle
       *[other] { $count } Stellen
    } zum Prüfen
sent-other-game = eine Liste eines anderen Spiels: sie zählt nicht, bis die Prüfstelle entscheidet
sent-table-there = diesen Tisch hat die Prüfstelle schon: zweimal fotografiert? Dann das zweite Foto zurücknehmen
sent-unreadable = nicht lesbar: bitte noch einmal aufnehmen
sent-unreadable-because = nicht lesbar ({ $why }): bitte noch einmal aufnehmen
sent-duplicate = dieses Foto ist schon da, nichts doppelt gespeichert
desk-discard-reason = versehentlich gesendet
desk-discard = Verwerfen (Entf)
desk-discarded = verworfen
desk-undiscard = doch behalten
desk-undone = zurückgenommen
desk-nothing-to-undo = nichts zurückzunehmen
desk-blank = leer
desk-history = Verlauf des Blatts
desk-history-heads = Wann|Wer|Was|Feld|Vorher|Nachher
desk-history-kinds = reading=gelesen|paper=Wert vom Papier|counts=gilt stattdessen|initials=Kürzel|void=ungültig|copy=Kopie|game=Spiel|discard=verworfen|withdraw=Antwort zurückgenommen|form=Formular
desk-capture = Mit dem Handy aufnehmen: diesen Code scannen
desk-capture-loopback = Handys erreichen die Prüfstelle so nicht: mit --listen 0.0.0.0:8377 starten, dann steht hier ihr Code.
desk-copy-of = ist eine Kopie von
desk-uncopy = doch keine Kopie
desk-our-game = gehört doch zu diesem Abend
desk-game-confirmed = zu diesem Abend erklärt
desk-not-our-game = doch ein anderes Spiel
desk-reread = Noch einmal lesen
desk-form = Formular
desk-header-off = der Kopf liegt nicht, wo das Formular ihn hat
capture-title = Listen fotografieren
capture-dead-link = Dieser Link öffnet nichts: sein Schlüssel ist falsch oder erneuert; bitte den Code an der Prüfstelle neu scannen.
capture-help = Jede Liste flach und ganz ins Bild, bei gutem Licht. Jedes Foto geht sofort an die Prüfstelle; was nicht lesbar ist, bitte gleich noch einmal aufnehmen, solange die Liste auf dem Tisch liegt.
capture-take = Fotos aufnehmen
capture-sending = wird gesendet …
capture-dark = Zu dunkel: bitte noch einmal bei mehr Licht.
capture-blurred = Unscharf: bitte noch einmal, ruhig halten.
capture-failed = nicht gesendet
capture-ok = gelesen
capture-flagged = gelesen, mit Meldungen
capture-unreadable = nicht lesbar
capture-duplicate = schon da
capture-refused = nicht angenommen
capture-take-back = Zurücknehmen
form-no-page = { $path }: keine Seite darin
form-checked = { $path } geschrieben: { $boxes } Felder über dem Scan (Linien zu { $fit } % getroffen)
form-checked-header = Kopf: Linien zu { $lines } % getroffen, { $found } von { $labels } Beschriftungen an ihrem Platz
form-header-does-not-fit = Der Kopf des Formulars liegt nicht, wo die Vorlage ihn hat: `scan` würde Runde, Tisch und Teilnehmer-Nr. jedes Blatts nachfragen.
help-form = Das eigene Formular eines Vereins: aus dem leeren Blatt lernen, an einem Scan prüfen
help-form-example = aufsicht form learn leer.jpg --out verein-liste.json
help-form-learn = Ein Formular aus einem Scan oder Foto seines leeren Blatts lernen und als Vorlage schreiben
help-form-learn--blank = Ein Scan oder Foto des leeren Formulars (bei einem PDF die erste Seite)
help-form-learn--seats = So viele Spieler hat das Formular (nur zum Abgleich: gezählt wird auf dem Blatt)
help-form-learn--games = So viele Spielzeilen hat das Formular (nur zum Abgleich)
help-form-learn--out = Die Vorlage, die geschrieben wird (JSON), für `scan --form`
help-form-learn-example = aufsicht form learn leer.jpg --out verein-liste.json
form-learned = { $path } geschrieben: { $seats } Spieler, { $games } Spielzeilen, { $labels } Beschriftungen gelesen{ $title }
form-learned-title = , Titel „{ $title }“
learn-not-learned = { $path }: kein leeres Formular gelernt: { $why }
learn-no-table = keine linierte Tabelle gefunden
learn-cut-off = das Blatt ist am { $edge } Rand abgeschnitten: die Tabelle läuft aus dem Bild
edge-left = linken
edge-right = rechten
edge-top = oberen
edge-bottom = unteren
learn-no-seats = keine Spielerspalten (je + und −) in der Tabelle gefunden
learn-too-few-rows = nur { $found } Spielzeile(n) gefunden: ein Formular braucht mindestens zwei
learn-no-check-column = keine Aufs.-Spalte rechts der Spielerspalten gefunden
learn-no-footer = keine Fußzeilen (Gesamt, Abzug, Endergebnis) unter den Spielzeilen gefunden
learn-no-player-block = kein Spielerblock (Teilnehmer-Nr., Name) über der Tabelle gefunden
learn-no-round-and-table = keine Kästchen für Runde und Tisch gefunden
learn-no-signatures = keine Unterschriftszeile unter der Tabelle gefunden
learn-filled = { $cells } Spielfelder sind beschrieben: das ist eine ausgefüllte Liste, kein leeres Formular
learn-seats-differ = auf dem Blatt sind { $found } Spieler, angegeben waren { $hinted }
learn-games-differ = auf dem Blatt sind { $found } Spielzeilen, angegeben waren { $hinted }
help-form-check = Jedes Feld eines Formulars über einen Scan zeichnen (bei einem PDF die erste Seite)
help-form-check--form = Das Formular: ein mitgeliefertes (punkteliste-a4-32, doko-a4-24x5) oder der Pfad einer Vorlage
help-form-check--scan = Ein Scan oder Foto einer Liste auf diesem Formular
help-form-check--out = Das Bild, das geschrieben wird (PNG): die gerade gerückte Liste, jedes Feld umrandet
help-form-check-example = aufsicht form check verein-liste.json scan.jpg --out passt.png
form-does-not-fit = Das Formular passt nicht zu diesem Scan: nur { $fit } % seiner Linien getroffen, `scan` braucht { $least } %.
reread-unreadable = Blatt { $id } ist auf diesem Formular nicht lesbar: es bleibt, wie es ist
copy-missing = Blatt { $of } gibt es nicht: eine Kopie ist es nur von einem Blatt dieses Abends
copy-unreadable = Blatt { $of } ist nicht lesbar: eine Kopie ist es nur von einem lesbaren Blatt
copy-void = Blatt { $of } ist für ungültig erklärt oder verworfen: eine Kopie ist es nur von einem Blatt, das zählt
copy-is-copy = Blatt { $of } ist selbst eine Kopie: als Kopie das Original angeben
copy-has-copies = von diesem Blatt sind andere als Kopie erklärt: erst diese zurücknehmen
counts-no-reason = was gilt, braucht einen Grund
writers-seat-outside = Platz { $seat } des Schreibers gibt es an keinem Tisch: die Tische haben die Plätze 1 bis { $seats }
writers-seating-one-night = ein Sitzplan gehört zu einem Abend: diesen mit --tournament nennen
check-settled = entschieden von { $by }
count-said = geschrieben { $written }, gilt { $value }, { $by }: { $reason }
desk-ask-paper = Was steht auf dem Papier?
desk-ask-counts = Was gilt?
desk-counts-reason = Grund
desk-counts-set = so gilt es
desk-counted = entschieden, was gilt
desk-settled = entschieden
action-sheet-unreadable = am Blatt „Noch einmal lesen“ auf dem richtigen Formular; versehentlich gesendet: „Verwerfen“ (Entf)
action-round-or-table-missing = am Blatt Runde und Tisch eintragen (Was steht auf dem Papier?)
action-player-id-unreadable = am Blatt die Teilnehmer-Nr. des Platzes eintragen (Was steht auf dem Papier?)
action-table-twice = ist es dasselbe Blatt: am späteren „ist eine Kopie von“; sonst am Blatt Runde oder Tisch eintragen (Was steht auf dem Papier?)
action-player-twice-in-round = an den genannten Blättern die Teilnehmer-Nr. prüfen und berichtigen (Was steht auf dem Papier?)
action-player-missing-round = das fehlende Blatt einscannen oder mit dem Handy aufnehmen, oder am Blatt die Teilnehmer-Nr. eintragen (Was steht auf dem Papier?)
action-player-not-registered = die Teilnehmer-Nr. am Blatt berichtigen (Was steht auf dem Papier?), oder den Spieler in die Teilnehmerliste aufnehmen
action-registered-without-sheet = das fehlende Blatt einscannen oder mit dem Handy aufnehmen; ein Spieler, der nicht kam, bleibt ohne Blatt
action-table-without-sheet = das Blatt des Tisches einscannen oder mit dem Handy aufnehmen, oder Runde und Tisch am gelesenen Blatt berichtigen
action-seating-differs = am Blatt die Teilnehmer-Nr. prüfen; ein Platztausch braucht nichts weiter
action-sheet-discarded = am Blatt „doch behalten“, wenn es zum Abend gehört
action-sheet-void = am Blatt „wieder gültig“, wenn es doch zählt
action-sheet-twice = am späteren Blatt „ist eine Kopie von“
action-rows-copied = beide Blätter ansehen; ist eines falsch, „Blatt für ungültig erklären“
action-wrong-game = am Blatt „gehört doch zu diesem Abend“, sonst „Blatt für ungültig erklären“
action-sheets-in-doubt = die markierten Blätter an der Prüfstelle durchsehen
place-game = Spiel { $row }, Platz { $seat }, { $column }
place-gesamt = Platz { $seat }, Gesamt { $column }
place-abzug = Platz { $seat }, Abzug
place-endergebnis = Platz { $seat }, Endergebnis
place-player = Platz { $seat }, Teilnehmer-Nr.
place-round = Runde
place-table = Tisch

## Fragen am Tisch der Aufsicht
question-stale = Die Frage { $id } gibt es nicht mehr: beantwortet, oder ihre Zellen haben sich geändert. Bitte die Fragen neu laden.
question-not-asked = Blatt { $sheet }, { $path } gehört nicht zu dieser Frage
question-value-or-cells = Eine Antwort nennt einen Wert („value“) oder ihre Zellen („cells“), nicht beides und nicht keins
question-settled = sicher gelesen nach der Antwort von { $by } zu „{ $value }“
desk-questions = Fragen
desk-question-help = Eintippen, was auf dem Papier steht, Enter gilt für alle gezeigten Zellen (leer: der Vorschlag) · Alt und die Nummer einer Zelle nimmt sie heraus, sie bleibt gefragt · Esc: nächste Frage
desk-no-questions = Keine Fragen offen.
desk-question-read = gelesen
desk-question-answered = beantwortet:
desk-question-sums = nach den Summen
desk-discard-ask = Dieses lesbare Blatt aus dem Abend nehmen (verwerfen)? Strg-Z holt es zurück.
desk-question-sending = wird gespeichert …
desk-no-crop = Für diese Zelle liegt kein Bild vor
question-blank = leer
question-reread = neu gelesen nach der Antwort von { $by } zu „{ $value }“, weiter gefragt
question-cell-at = Runde { $round }, Tisch { $table }
desk-question-cells = Zellen
desk-question-cell = Zelle
desk-question-of = Frage
desk-crop-no-path = Welche Zelle? Die Anfrage nennt sie mit ?path=
push-missing = das Archiv des Spielorts { $path } gibt es nicht
push-default-name = das Archiv heißt aufsicht.sqlite, wie das jedes Spielorts, wenn der Scan keinen Namen bekam: mit --venue NAME den Spielort nennen
push-venue = der Name des Spielorts „{ $venue }“ taugt nicht: er darf nicht leer sein und keinen „/“ enthalten (--venue NAME)
push-to = { $to } ist kein zentrales Archiv: --to nennt einen PostgreSQL-Server, postgres://BENUTZER@RECHNER[:PORT]/DATENBANK
push-bar = {"{"}bar:30{"}"} {"{"}pos{"}"}/{"{"}len{"}"} Schritte  {"{"}msg{"}"}  {"{"}elapsed{"}"} vergangen
push-done = { $venue }: { $nights ->
        [one] 1 Abend
       *[other] { $nights } Abende
    } mit { $sheets ->
        [one] 1 Blatt
       *[other] { $sheets } Blättern
    } im zentralen Archiv; neu gesendet: { $new ->
        [one] 1 Blatt
       *[other] { $new } Blätter
    }, { $scans ->
        [one] 1 Scan
       *[other] { $scans } Scans
    }, { $readings ->
        [one] 1 Lesung
       *[other] { $readings } Lesungen
    }, { $decisions ->
        [one] 1 Entscheidung
       *[other] { $decisions } Entscheidungen
    }, { $lines ->
        [one] 1 Protokollzeile
       *[other] { $lines } Protokollzeilen
    }
