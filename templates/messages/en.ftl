# What aufsicht says on the command line, in English. A club changes a
# wording by copying this file into the folder AUFSICHT_MESSAGES names and
# editing it there: its entries win, no recompiling.

## Loading what the command was given
load-rules = cannot load the rule set (--rules)
load-form = cannot load the form (--form)
load-forms = cannot load the forms (--forms)
load-participants = cannot use the participant list (--participants)
input-missing = { $path } does not exist: check the path
nothing-to-read = No image or PDF found to read: nothing scanned, no night made
dpi-range = --dpi { $dpi } is out of range: use 50 to 1200
page-format = { $path }: give the output a .png, .jpg, .tif or .pdf name
cannot-write = cannot write { $path }
cannot-create-folder = cannot create the output folder { $path }
cannot-write-folder = cannot write to the output folder { $path }
cannot-lock = cannot lock { $path }

## scan
scan-waiting = another scan is writing to { $path }: waiting until it is done
scan-bar = {"{"}bar:30{"}"} {"{"}pos{"}"}/{"{"}len{"}"} files  {"{"}msg{"}"}  {"{"}elapsed{"}"} gone, {"{"}eta{"}"} left
scan-progress = { $sheets ->
    [one] { $sheets } sheet
   *[other] { $sheets } sheets
}, { $flagged } flagged or unreadable
scan-resumed = { $count ->
        [one] 1 file was
       *[other] { $count } files were
    } in the archive already: taken from there, not read again
scan-done = { $sheets ->
    [one] { $sheets } sheet
   *[other] { $sheets } sheets
}, { $ok } ok, { $flagged } flagged, { $unreadable } unreadable; results and summary.csv in { $path }
scan-failed = { $count } files have no result file (see above): fix the cause and run the same command again; finished files are not read twice
scan-incomplete = { $count } files or folders could not be read from the disk (see above and summary.csv): fix the cause and run the same command again

## verify, standings, review
verify-other-rules = note: { $file } names rule set `{ $named }`; it was checked with `{ $rules }` as --rules says
standings-verify-failed = { $file }: { $error }; counted as written, with its flags as they are
standings-other-rules = { $count ->
    [one] { $count } sheet was
   *[other] { $count } sheets were
} read under another rule set than --rules { $rules }: { $first }{ $more }; rank each rule set on its own
and-more = {" "}and { $count } more
write-output = cannot write the output: { $error }
write-checks = cannot write the night checks to { $path }
standings-done = { $players ->
    [one] { $players } player
   *[other] { $players } players
} from { $sheets ->
    [one] { $sheets } sheet
   *[other] { $sheets } sheets
}; { $checks ->
    [one] { $checks } night check
   *[other] { $checks } night checks
} (in { $path }); { $review } players with sheets to review
not-a-folder = { $path } is not a folder: give the folders of sheet results (scan --out)
skipped-json = skipped { $file }: { $error }
no-results = no sheet results (*.json) in { $dirs }: run `aufsicht scan --out DIR` first
review-no-alignment = { $file }: no stored alignment (scanned by an older version?): no crops for it
review-missing-images = { $count ->
    [one] { $count } flagged sheet
   *[other] { $count } flagged sheets
} without their scanned image (moved?): the page shows their flags without crops
review-done = review page for { $count ->
    [one] { $count } sheet
   *[other] { $count } sheets
} written to { $path }: open it in a browser

## archive, export, correct
archive-missing = { $path } does not exist: give the archive a scan wrote (scan --archive, default aufsicht.sqlite in --out); the desk makes one given --rules and --tournament
export-done = { $count ->
    [one] { $count } sheet
   *[other] { $count } sheets
} and values.csv written to { $path }
export-season-done = { $nights ->
    [one] { $nights } night
   *[other] { $nights } nights
}, { $count ->
    [one] { $count } sheet
   *[other] { $count } sheets
} exported to { $path } (nights.csv names them)
by-empty = --by is empty: say who corrected the sheet (name or initials)
correct-not-archived = { $file }: its source { $source } (page { $page }) is not in the archive: correct a result that a scan into this archive wrote
correct-no-rules = The archive names no rule set for this sheet: please give --rules.
correct-change = { $field }: { $old } -> { $new }
blank = (blank)
correct-done = { $count ->
    [one] { $count } value
   *[other] { $count } values
} corrected by { $by }; the sheet now has { $flags ->
    [one] { $flags } flag
   *[other] { $flags } flags
}

## Errors of the library
template-read = cannot read { $file }: { $problem }
template-not-json = { $file } is no template: line { $line } is no JSON (form learn writes a template)
template-invalid = { $file }:{ $line }: { $field }{ $message }
template-field = field `{ $field }`:{" "}
template-unknown = unknown { $what } "{ $name }": use one of { $known }, or the path of a { $what } file
what-form = form
what-rules = rule set
sheet-read = cannot read { $file }: { $problem }
sheet-json = { $file }:{ $line }: not a sheet result ({ $field }{ $message })
sheet-shape = { $file }: not a sheet result: field `{ $field }` { $message }
shape-schema = is "{ $found }", expected "{ $schema }"
shape-seats = has { $seats } seats; a sheet has 4 or 5
shape-entries = has { $len } entries but `players` has { $seats } seats
shape-not-player-no = "{ $id }" is not a participant number (digits only, or null)
shape-row-cells = row { $row } has { $cells } cells but the sheet has { $seats } seats
shape-row-zero = row numbers start at 1
shape-row-twice = row { $row } appears twice
shape-row-beyond = row { $row } is beyond any form (1 to { $most })
shape-out-of-range = is { $n }; it runs from 1 to { $most }
shape-flag-row = is { $row }; rows run from 1 to { $most }
shape-flag-seat = is { $seat }; the sheet's seats run from 1 to { $seats }
sheet-binary = { $file }: not a sheet result (binary data, not JSON text)
sheet-seats-for-rules = the sheet uses { $used } seats but rule set `{ $rules }` is for tables of at most { $max }: check --rules
sheet-too-few-seats = the sheet has { $seats } seat columns but rule set `{ $rules }` needs a table of { $players }: check --rules
archive-open = cannot open the archive { $path }: { $message } (give another --archive file)
archive-busy = archive: another program (a scan, `correct` or the review service) has kept the archive busy for two minutes: try again when it is done
archive-not-archive = archive: the file is not an aufsicht archive (give another --archive file)
archive-disk-full = archive: the disk is full: make room and run the same command again
archive-read-only = archive: the archive or its folder cannot be written (read-only?): give another --archive file
archive-sql = archive: { $message }
archive-scan = archive: cannot keep the scan { $path }: { $message }
archive-corrupt = archive: a stored result cannot be read back: { $message }
archive-server-unreachable = archive: the PostgreSQL server { $address } does not answer (is it running, are host and port right?)
archive-server-login = archive: the PostgreSQL server { $address } refuses the login (user or password is wrong)
archive-server-waited = archive: another venue has been writing to the central archive for a minute; nothing half was stored: try again later
archive-server-no-password = archive: the PostgreSQL server { $address } asks for a password; neither the address, PGPASSWORD nor ~/.pgpass gives one
push-waiting = waiting for another venue that is writing to the central archive …
archive-server-no-database = archive: the PostgreSQL server does not know the database of { $address }
archive-server-refused = archive: the PostgreSQL server { $address } refuses: { $message }
archive-server-gone = archive: the connection to the PostgreSQL server broke off; nothing half was stored: try again
archive-other-version = archive { $path }: its format is the older { $version }, this release reads format { $known }: open it with this release first (say `aufsicht archive check FILE`), then push
archive-other-venue = archive: the central archive holds "{ $night }" already, from another venue's archive: choose a name of your own with --venue
archive-server-conflict = archive: another run has just stored the same; nothing half was stored: try again
archive-pushed-as = archive: the central archive holds this venue night already as "{ $as }"; as "{ $night }" it would count twice: push with the --venue used then
archive-scans-elsewhere = archive: every scan of this night is in the central archive's night "{ $there }" already; under "{ $night }" the same sheets would count twice: not sent
archive-server-silent = archive: no PostgreSQL server answers at { $address } (ten seconds without an answer): are host and port right?
archive-server-tls = archive: { $address } asks for TLS, which aufsicht does not speak: reach the server through a VPN or an SSH tunnel and leave sslmode out
archive-server-backup = archive: an archive on a PostgreSQL server ({ $address }) is backed up by the server itself (pg_dump)
archive-column = archive: column { $column } of an answer does not hold what the archive writes there
archive-bad-date = archive: a night's stored date "{ $date }" is no date
archive-stored-form = archive: the night's form { $form } is no form template: { $message }
archive-scan-read = archive: a kept scan cannot be read: { $message }
archive-no-such-tournament = archive: no tournament "{ $name }"; the archive holds: { $names }
archive-empty = archive: the archive is empty: scan into it first
archive-several = archive: the archive holds several nights ({ $names }): name one with --tournament, by its name or its date
archive-no-such-sheet = archive: no sheet with id { $id }
archive-no-such-player = participant { $player } is on no sheet of this night
archive-newer = { $path } was written by a newer aufsicht (archive version { $version }, this one knows { $known }): open it with the newer release; the archive is left unchanged
archive-date-differs = the night { $name } is dated { $had }, not { $given }: give another tournament name or correct the date
bad-date = { $option } { $date } is no date (D.M.YYYY or YYYY-MM-DD).
archive-backed-up = { $archive } backed up to { $path }
check-scan-altered = the kept scan { $sha256 } no longer matches its hash
check-result-altered = the stored result of sheet { $sheet } no longer matches its hash
check-result-unreadable = the stored result of sheet { $sheet } cannot be read: { $message }
check-values-differ = sheet { $sheet }: values the archive holds otherwise than its stored result: { $count } (first { $first })
check-summary = { $scans ->
        [one] 1 scan
       *[other] { $scans } scans
    } and { $sheets ->
        [one] 1 sheet
       *[other] { $sheets } sheets
    } checked; the scans take { $mb } MB, { $kb } kB a sheet; { $without ->
        [one] 1 sheet
       *[other] { $without } sheets
    } without their scan kept
check-damaged = the archive is damaged: { $count ->
        [one] 1 finding
       *[other] { $count } findings
    } above
archive-csv = archive: cannot write CSV: { $message }
participants-read = cannot read the participant list { $path }: { $problem }
participants-empty = { $path }: no participant numbers in it (a CSV with the header number,name, or one number per line)
participants-list = participant list { $path }: { $problem }
roster-no-column = the header has no column "{ $column }" (expected: number,name,…)
roster-bad-number = line { $line }: "{ $number }" is no participant number (1 to 6 digits)
roster-duplicate = line { $line }: number { $number } is already on line { $first }
roster-csv = line { $line }: { $message }
draw-too-few = { $players } participants are too few: a table needs { $least }
draw-uneven = { $players } participants cannot be seated at tables of four: register { $add } more or { $remove } fewer
draw-write = cannot write the seating { $path }
draw-done = { $players } participants, { $rounds ->
        [one] 1 round
       *[other] { $rounds } rounds
    } of { $tables ->
        [one] 1 table
       *[other] { $tables } tables
    } ({ $fives ->
        [one] 1 five-table
       *[other] { $fives } five-tables
    })
draw-seed = seed { $seed }
draw-no-repeats = nobody meets an opponent twice
draw-repeats = { $repeats } meetings repeat (the fewest found)
hall-round = { $title } round { $round }
hall-table = Table
hall-slip-seat = round { $round }: table { $table }, seat { $seat }
hall-slip-free = round { $round }: not seated
hall-write = cannot write the table list and slips { $path }
seating-header = the seating's first line must be "round,table,seat,player"
seating-row = seating line { $line }: expected round, table, seat (numbers from 1) and a participant number
seating-twice = seating line { $line }: the seat is taken, or the participant is already seated in this round
seating-gap = the seating leaves out a round, table or seat between others
seating-read = cannot use the seating { $path }
print-nothing = nothing to print: the seating has no such round
print-done = { $sheets } sheets printed to { $path }
print-too-many = a table of { $seats } seats does not fit the form { $form } ({ $room } seats)
print-unknown = participant number { $number } of the seating is not on the participant list
reader-tesseract-missing = Tesseract could not start: install tesseract-ocr-eng (scripts/install-deps.sh)
reader-tesseract-not-built = this build of aufsicht has no Tesseract: use --reader cnn, or build it with Tesseract (docs/install.md)
reader-model = the { $which } model cannot be read: { $message }
batch-readers = cannot set up the digit readers: { $message }
batch-hash = cannot read { $path } to note its content: { $problem }
batch-write = cannot write { $path }: { $problem } (check the output folder and free space)

## Night checks (standings)
check-sheet-unreadable = sheet { $sheet } could not be read: scan or photograph the sheet again; discard at the desk what was sent by mistake
check-wrong-game = { $sheet } is another game's sheet: its players do not count until someone decides (declare it invalid, or read it with the right rule set)
check-round-or-table-missing = sheet { $sheet } has no readable round or table number: write it into the sheet's JSON; its points count in the total but in no round column
check-player-id-unreadable = sheet { $sheet }, seat { $seat }: no readable participant number; these points belong to nobody until it is written into the sheet's JSON
check-table-twice = round { $round }, table { $table } is on { $count } sheets ({ $sheets }): a sheet scanned twice or a wrong number; remove the duplicate or correct the number
check-player-twice-in-round = player { $player } is at { $count } places in round { $round } ({ $sheets }): check the participant numbers on these sheets
check-player-missing-round = player { $player } has no sheet in round { $rounds }{ $hint }: a missing sheet or a misread participant number; find the sheet or correct the number
check-player-not-registered = player { $player } ({ $sheets }) is not on the participant list{ $hint }: correct the number on the sheet, or add a late registration to the list
check-registered-without-sheet = registered player { $player } is on no sheet{ $hint }: a missing sheet, a misread number or a player who did not come
check-table-without-sheet = round { $round }, table { $table } (drawn: { $players }): no sheet; is it missing, or its round or table misread?
check-seating-differs = { $sheet } (round { $round }, table { $table }): on the sheet { $read }, drawn { $drawn }; a seat swap, a substitute or a misreading: please check
check-sheet-discarded = { $sheet } is discarded ({ $by }: { $reason }): it is not part of the night
check-sheet-void = { $sheet } was declared invalid by { $by } ({ $reason }): its players' points in this round count 0
check-sheet-twice = { $second } says what { $first } says: the same sheet scanned or photographed again, read with another round or table; it counts once until a person decides: discard the double
check-sheet-twice-same = { $first } came twice: the same sheet scanned or photographed again; it counts once until a person decides: discard the double
sheet-round-table = R{ $round } T{ $table }
check-sheets-in-doubt = provisional: { $count ->
        [one] one sheet is
       *[other] { $count } sheets are
    } still to be looked at ({ $sheets })
check-rows-copied = { $first } and { $second } have { $rows } game rows in a row alike: copied from another table? Check both sheets
check-not-drawn = no such table
hint-same-player = {" "}(perhaps the same as player { $players }, seen only there)
hint-registered = {" "}(perhaps registered player { $players }, on no sheet)
hint-read-as = {" "}(perhaps read as { $players }, not registered)
or = {" "}or{" "}

## Flags: what a sheet has wrong
code-ROW_NOT_ZERO_SUM = row does not sum to 0
code-ROW_ILLEGAL_VALUES = no game of the tariff
code-ROW_SEAT_BOTH = seat with + and −
code-ROW_SEAT_EMPTY = seat empty
code-FIRST_GAME_RESTRICTED = not allowed in the first game
code-TOUT_NOT_INITIALLED = tout not initialled
code-CORRECTION_NOT_INITIALLED = correction not initialled
code-SOLO_NOT_CIRCLED = solo not circled
code-CIRCLE_NOT_SOLO = circle without a solo
code-GESAMT_MISMATCH = Gesamt does not match
code-ABZUG_MISMATCH = Abzug does not match
code-ENDERGEBNIS_MISMATCH = Endergebnis does not match
code-ENDERGEBNIS_NOT_ZERO = Endergebnis values do not sum to 0
code-GAME_COUNT = number of games
code-PFLICHTSOLO_MISSING = Pflichtsolo missing
code-SIGNATURE_MISSING = signature missing
code-PLAYER_ID_MISSING = participant number missing
code-INK_DIFFERS = another pen
code-CELL_UNCERTAIN = read uncertainly
code-SHEET_UNREADABLE = sheet unreadable
code-WRONG_GAME = another game's sheet
flag-nothing = nothing
flag-row-not-zero-sum = Game { $row }: the row adds up to { $sum } instead of 0.
flag-row-illegal-values = Game { $row }: { $values } fits no game of the tariff.
flag-row-seat-both = Game { $row }: seat { $seat } has both a plus and a minus value.
flag-row-seat-empty = Game { $row }: seat { $seat } has no value.
flag-first-game-restricted = Game { $row }: { $game } is not allowed in the first game of a round.
flag-tout-not-initialled = Game { $row }: { $game } without the supervisor's initials.
flag-correction-not-initialled = Game { $row }: correction at seat { $seat } without the supervisor's initials.
flag-correction-not-initialled-struck = Game { $row }: correction at seat { $seat } ({ $was } struck out, { $now } written) without the supervisor's initials.
flag-solo-not-circled = Game { $row }: the { $game } of seat { $seat } is not circled.
flag-circle-not-solo = Game { $row }: seat { $seat } is circled but played no solo.
flag-gesamt-mismatch = Seat { $seat }: Gesamt { $column } is { $written }, the column adds up to { $sum }.
rows-could-explain = { $count ->
        [one] Row { $rows } could
       *[other] Rows { $rows } could
    } explain it.
flag-abzug-mismatch = Seat { $seat }: Abzug is { $written }, the smaller Gesamt is { $expected }.
flag-endergebnis-mismatch = Seat { $seat }: Endergebnis is { $written }, plus minus minus gives { $expected }.
flag-endergebnis-not-zero = The Endergebnis values add up to { $sum } instead of 0.
flag-game-count = { $counted } games written; a table of { $players } plays { $expected }.
flag-pflichtsolo-missing = Seat { $seat } played no solo this round (Pflichtsolo).
flag-signature-missing = No signature for seat { $seat }.
flag-player-id-missing = Seat { $seat }: the participant number is missing.
flag-ink-differs = { $place }: written in another pen than the rest of the sheet ({ $measure }); a later edit?
ink-place-game = Game { $row }, seat { $seat } ({ $field })
ink-place-footer = Seat { $seat } ({ $field })
ink-colour = its colour lies { $by } apart
ink-colour-part = { $mm2 } mm² of it in another colour
ink-darker = { $percent } % darker, strokes { $width } times as broad
ink-lighter = { $percent } % lighter, strokes { $width } times as broad
flag-sheet-unreadable = Sheet unreadable: { $why }.
flag-wrong-game = another game's sheet: the form { $form } is for { $form_game }, the night is scored by { $rules } ({ $rules_game }); it does not count until someone decides.
flag-wrong-game-rows = another game's sheet: its rows fit the { $form_game } tariff and not { $rules } ({ $rules_game }); it does not count until someone decides.
game-schafkopf = Schafkopf
game-doppelkopf = Doppelkopf

## Flags: what was read unsurely
field-round = Round
field-table = Table
field-header-off = { $what } (the sheet's header does not lie where the form has it)
field-player-id = Seat { $seat }: participant number
field-game = Game { $row }, seat { $seat } { $column }
field-gesamt = Seat { $seat }: Gesamt { $column }
field-abzug = Seat { $seat }: Abzug
field-endergebnis = Seat { $seat }: Endergebnis
uncertain = { $what }: read "{ $read }" ({ $percent }%), please check.
uncertain-suggested = { $what }: read "{ $read }" ({ $percent }%), by the tariff and column sum more likely { $value } ({ $probability }%), please check.
uncertain-taken = { $what }: read "{ $read }" ({ $percent }%), taken as { $value } by the tariff and the sums, please check.
uncertain-doubted = { $what }: read "{ $read }", but its row and its Gesamt both make it { $value } ({ $probability }%): misread, or changed after the sum was added up, please check.
uncertain-legal-row = { $what }: read "{ $read }"; its row is legal as read, but several seats' Gesamt agree with their columns only if it is { $value }: please check the row.
uncertain-poor-hand = { $what }: read "{ $read }"; this hand reads unsure in many cells and its seat's Gesamt disagrees with the column: please check.
uncertain-explained = { $what }: read "{ $read }"; the Gesamt of these columns all agree if this hand means { $value } here: please check.
uncertain-consequences = As read, it also means: { $flags }
uncertain-across-side = { $what }: the number runs over the line into the next column; which column is it in? Please check.
uncertain-out-of-range = { $what }: read "{ $read }", but no such number exists; please check.
uncertain-listed = {" "}By the participant list more likely { $number } ({ $probability }%).
uncertain-not-listed = Seat { $seat }: participant number read "{ $number }", not in the participant list, please check.
uncertain-written-over = Seat { $seat }: participant number { $printed } is printed, something is written over it (read "{ $read }"): a substitute or a correction? Please check.

## Why a file or page is not read
problem-not-found = file not found
problem-no-permission = no permission to read it
problem-name-too-long = the file name is too long for the file system
problem-disk-full = the disk is full
problem-read-only = the disk is read-only
problem-other = the disk reports an error
unreadable-not-an-image = not a readable image (broken, or an unknown format)
unreadable-empty-file = empty file (0 bytes): scan or copy it again
unreadable-unsupported = this kind of image is not supported ({ $what }); scan to PNG, JPEG, TIFF or PDF
unreadable-too-large = the image is too large ({ $size }); a scan at 300 dpi is enough
unreadable-too-small = the image is only { $width }×{ $height } pixels
unreadable-not-a-pdf = not a readable PDF
unreadable-pdf-without-pages = the PDF has no pages
unreadable-pdf-page-without-image = the PDF page holds no scanned image
unreadable-pdf-stream-too-large = the image data in the PDF would unpack to more than { $limit } MB (broken, or not a scan)
unreadable-pdf-image-broken = the image in the PDF is broken
unreadable-tiff-page = page { $page } of { $pages } of a multi-page TIFF is not read: scan to PDF or one file per page
unreadable-no-table = no ruled table found on the page
unreadable-table-mismatch = the ruled table does not match the form
unreadable-other-form = the page does not match the form { $form } (only { $percent }% of its ruled lines found)
unreadable-other-print = the page is not the form { $form }: its lines fit only in part ({ $percent }%) and its title and row numbers are not where the form prints them
unreadable-internal = internal error while reading ({ $what }), please report it with this file
unreadable-set-aside = the stored result cannot be read back ({ $why }); the sheet is set aside until it is read again or discarded
passed-not-a-scan = skipped (not an image or PDF)
passed-not-a-regular-file = skipped (not a regular file but a { $what })
passed-again = skipped (a link to what was read already)
passed-unreadable = not read: { $problem }

## The review desk (review --serve) and its edits
edit-bad-path = { $path }: not a value on a sheet (games/NO/SEAT/plus|minus, gesamt/SEAT/plus|minus, abzug/SEAT, endergebnis/SEAT, players/SEAT, round, table)
edit-bad-seat = { $path }: the sheet has { $seats } seats
edit-bad-unsigned = { $path }: { $value } is not a number from 0 (or blank)
edit-bad-signed = { $path }: { $value } is not a whole number (or blank)
edit-bad-digits = { $path }: { $value } is not a participant number of 1 to 6 digits (or blank)
edit-stale = sheet { $id } was changed meanwhile (now version { $now }, you edited version { $yours }): reload it and correct again
edit-no-values = no values to set: send {"{"}"by": NAME, "values": [{"{"}"path": P, "value": V{"}"}]{"}"}
edit-bad-body = the request is not the expected JSON: { $problem }
json-unknown-field = there is no field “{ $field }” here
json-missing-field = the field “{ $field }” is missing
json-wrong-kind = a value is of the wrong kind (line { $line }, column { $column })
json-not-json = not JSON (line { $line }, column { $column })
http-not-found = the desk has no such address
http-method = this address does not take such a request
http-too-large = the request is too large
http-media-type = the request is not of the kind expected (JSON or a form with files)
http-bad-request = the request cannot be read
http-failed = the desk could not do that; please try again
serve-no-sheet = there is no sheet { $id } in this archive
serve-audit-whom = whose audit? give ?player=NUMBER or ?sheet=ID
serve-no-image = the scan of sheet { $id } is not where it was read ({ $source })
serve-forbidden-origin = refused: the request comes from another site ({ $origin })
serve-foreign-host = refused: "{ $host }" is not a name of this desk (more names with --host)
serve-token-needed = this address needs the desk's key: on a phone scan the desk's QR code again, on a computer open the link the desk names when it starts
serve-phone-only = the phone's key opens only the capture page and sending scans to its night
serve-made-archive = archive { $path } made, with the night "{ $night }" ({ $rules })
serve-made-night = night "{ $night }" ({ $rules }) made in { $path }
serve-no-night = the archive has no night number { $id }
serve-listening = review desk at { $url } (Ctrl-C stops it)
serve-token = from another computer: { $url }
serve-bind = cannot listen on { $addr }: { $problem }
serve-loopback-only = --listen { $addr } reaches other computers: they get in with the printed token only
serve-stopped = review desk stopped; every correction is in { $path }
desk-title = Review
desk-queue = Sheets to review
desk-standings = Standings
desk-ranking = Final ranking
desk-writers = Schreiber
desk-export-csv = Download CSV
desk-print = Print
desk-reviewer = Reviewer
desk-help = Enter takes the suggestion · digits then Enter type a value · "-" or Del blanks it · Ctrl-Z takes the last change back · K keeps it as written · Tab and the arrows move · Page Down: next sheet · Z zooms the sheet
desk-reading = read
desk-suggestion = suggestion
desk-alternatives = alternatives
desk-kept = kept as written
desk-saved = saved
desk-no-flags = nothing to review on this sheet
desk-all-done = every sheet is reviewed
desk-name-first = enter your name first
desk-no-such-form = The desk knows no form { $form }.
desk-scan-not-kept = The archive does not keep this sheet's scan: it cannot be read again.
desk-flags = flags
desk-initial = initial row
desk-initialled = initialled, row
desk-take-back = take back
desk-void = declare the sheet invalid
desk-void-reason = reason
desk-voided = declared invalid
desk-unvoid = valid again
desk-rank = rank
desk-player = player
desk-total = total
desk-provisional = (provisional)
desk-in-doubt = a sheet of this player is still in doubt
desk-checks = The night's checks
desk-round-column = Round
desk-checks-open = provisional: { $count ->
        [one] one check open
       *[other] { $count } checks open
    }
desk-spreadsheet-file = ranking
desk-export-csv-de = table for spreadsheets (CSV, German)

## scan --watch
watch-start = watching { $path }: each scan is read as it arrives; Ctrl-C stops
watch-file = { $file }: { $sheets ->
    [one] { $sheets } sheet
   *[other] { $sheets } sheets
}, { $flagged } flagged or unreadable
watch-stopping = stopping: the files in hand are finished first (Ctrl-C again stops at once)
watch-not-folder = --watch { $path }: not a folder: give the folder the scanner writes into
power-no-row = the sheet has no game row { $row }
power-no-reason = a sheet is declared invalid only with a reason
power-no-field = the sheet has no footer value "{ $field }" at seat { $seat } (plus, minus, abzug or endergebnis)
power-row-or-field = initials name a game row ("row") or a footer value ("seat" and "field"), one of them
power-copy-of-itself = a sheet is no copy of itself
power-copy-other-night = sheet { $of } belongs to another night: a copy is one of a sheet of the same night
scan-changed = The scan file has changed since these values were read from it: no crop is shown.
audit-title-player = Audit: participant { $player }
audit-title-sheet = Audit of a sheet
audit-standings = Standings line
audit-sheet = Round { $round }, table { $table }: { $source } (sheet { $id })
audit-void = Declared invalid by { $by } at { $at }: { $reason }
audit-discarded = Discarded by { $by } on { $at }: { $reason }; it does not count
audit-row = row
audit-crop = crop
audit-read = read
audit-sure = sure
audit-sum = sum
audit-game = game
audit-initials = initials
audit-seat = seat
audit-gesamt-plus = Gesamt plus
audit-gesamt-minus = Gesamt minus
audit-abzug = Abzug
audit-endergebnis = Endergebnis
audit-footer-note = Each field: written / from the game rows.
audit-flags = Flags
audit-changes = Changes
audit-no-changes = no change since the scan
audit-kind = kind
audit-field = field
audit-old = old
audit-new = new
audit-by = by
audit-at = at
change-kind-reading = read
change-kind-paper = value on paper
change-kind-counts = counts instead
change-kind-initials = initials
change-kind-void = declared invalid
change-kind-copy = copy
change-kind-game = game
change-kind-discard = discarded
change-kind-withdraw = answer taken back
change-kind-form = form
audit-moved = total moved
season-club = cannot use the club file { $path } ([season] best = N, min_nights = M)
season-title = Season table

# Column heads of the pages (the CSVs keep the column names).
column-rank = Rank
column-player = Player
column-name = Name
column-total = Total
column-qualified = Qualified
column-provisional = provisional at
column-nights = Nights
column-round = Round { $n }
column-review = To review
column-status = Status
standings-provisional = provisional
standings-final = final
column-tout_won = Tout won
column-tout_played = Tout played
column-solo_won = Solo won
column-solo_played = Solo played
column-sie_played = Sie played
column-round_difference = Round difference
audit-season = The season
audit-night = Night: { $night }
desk-night = Night
audit-accepted = accepted by { $by } at { $at }
load-members = cannot read the member list { $path }
desk-players = At the table

# The review page.
review-summary = { $sheets ->
    [one] 1 sheet
   *[other] { $sheets } sheets
}: { $flagged } flagged, { $unreadable } unreadable, { $ok } ok. Flagged sheets first. Edit a value and press “Save corrected JSON”; then run
review-save = Save corrected JSON
review-whole = whole sheet, flagged cells outlined
review-heading = { $source } — round { $round }, table { $table } — { $status }
review-status-ok = ok
review-status-flagged = flagged
review-status-unreadable = unreadable
review-players = players: { $players }; { $flags ->
    [one] 1 flag
   *[other] { $flags } flags
}
review-no-image = The scanned image could not be opened ({ $source }): compare with the paper sheet.
review-as-read = If the uncertain cells are as read:
review-taken = Read otherwise, taken as its row and column demand:
review-rings = A ring seen there was the number's own loop, read as drawn and not circled (check the circle):
review-read = read “{ $reading }” ({ $percent }%)
review-alternatives = alternatives: { $list }
review-alternative = “{ $reading }” { $percent }%
review-suggested = suggested: { $value } ({ $percent }%)
review-taken-as = taken as { $value } ({ $percent }%)
review-taken-line = game { $row }, seat { $seat } { $column }: read { $read }, taken as { $value }
review-ring-line = game { $row }, seat { $seat }: { $value }
review-not-whole = Not a whole number:
cell-in-row = row { $row }, seat { $seat }, { $column }
cell-of-seat = seat { $seat }, { $label }
cell-row = row { $row }
cell-signature = signature
cell-round = round
cell-table = table
cell-endergebnis-line = Endergebnis line

# The command line
cli-missing = Missing: { $args }.
cli-missing-or-archive = Missing: { $args } or --archive ARCHIVE.
cli-unknown = Unknown option: { $arg }.
cli-unknown-command = Unknown command: { $command }.
cli-did-you-mean = Did you mean { $arg }?
cli-no-command = Which command? For example: aufsicht scan --rules merkur --out results/ scans/
cli-bad-value = { $arg }: "{ $value }" is not allowed here.
cli-bad-value-of = { $arg }: "{ $value }" is not allowed here; possible: { $valid }.
cli-conflict = { $arg } cannot be used with { $other }.
cli-too-many = One value too many: "{ $value }".
cli-other = The command line was not understood.
cli-help = Help: { $help }
written-to = written: { $path }
review-default-title = The night's review
season-unranked = { $count ->
        [one] 1 player
       *[other] { $count } players
    } without a rank: a rank needs at least { $least ->
        [one] 1 night
       *[other] { $least } nights
    } (min_nights in the club file)

## The command line's help (every command and option; a command's example).
help-word-example = Example:
help-heading-usage = Usage:
help-heading-options = Options
help-heading-arguments = Arguments
help-heading-commands = Commands
help-value-command = COMMAND
help-value-rules = RULES
help-value-lang = LANG
help-value-out = OUT
help-value-archive = ARCHIVE
help-value-tournament = TOURNAMENT
help-value-participants = PARTICIPANTS
help-value-sheet = SHEET
help-value-seating = SEATING
help-value-form = FORM
help-value-club = CLUB
help-value-writer_seat = WRITER_SEAT
help-value-what = WHAT
help-value-to = TO
help-value-central = CENTRAL
help-value-venue = VENUE
help-value-from = FROM
help-value-format = FORMAT
help-value-date = DATE
help-value-by = BY
help-value-watch = WATCH
help-value-title = TITLE
help-value-seed = SEED
help-value-rounds = ROUNDS
help-value-round = ROUND
help-value-reader = READER
help-value-player = PLAYER
help-value-page = PAGE
help-value-newest = NEWEST
help-value-listen = LISTEN
help-value-hosts = HOSTS
help-value-hall = HALL
help-value-forms = FORMS
help-value-dpi = DPI
help-value-checks = CHECKS
help-value-inputs = INPUTS
help-value-dirs = DIRS
help-flag-help = Print help
help-flag-version = Print version
help = Reads and checks Schafkopf and Doppelkopf score sheets
help--lang = Language of messages and pages: de or en; also AUFSICHT_LANG
help-scan = Read scanned sheets (images, PDFs, folders) and write one result JSON per sheet
help-scan-example = aufsicht scan --rules merkur --participants liste.csv --archive verein.sqlite --out runde1/ scans/
help-scan--rules = Rule set id (merkur, schwaig, turnier30, laufende, doppelkopf) or the path of a rule file
help-scan--form = Form id (punkteliste-a4-32, doko-a4-24x5) or a template path; recognised when absent
help-scan--forms = A folder of a club's own form templates (*.json): each page is recognised among them and the shipped forms
help-scan--out = Folder for the results
help-scan--reader = Which reader reads the handwritten digits: the trained digit model (cnn), or Tesseract's legacy engine with a digit whitelist
help-scan--archive = The archive (SQLite) the sheets go into; default: aufsicht.sqlite in --out
help-scan--tournament = The tournament's name in the archive; default: the name of --out
help-scan--date = The night's date (YYYY-MM-DD), kept with the tournament for the season
help-scan--no_archive = Do not archive (results and summary.csv only)
help-scan--participants = The night's registered participant numbers (one per line, or a CSV with them in the first column): participant numbers are checked against it
help-scan--watch = Read each file as the scanner drops it into this folder, until Ctrl-C (the file being read is finished first)
help-scan--reread = Read again the files the archive already holds (on --form, say): their sheets are replaced, every value changed in the trail by --by
help-scan--by = Who reads again (initials), for the trail
help-scan--inputs = Scans to read: images (JPEG, PNG, TIFF), PDFs, and folders of them
help-verify = Recompute every flag of a sheet result and print it as JSON
help-verify-example = aufsicht verify --rules merkur runde1/tisch07.json
help-verify--rules = Rule set id or the path of a rule file
help-verify--sheet = A sheet result (JSON, schema aufsicht/sheet-v1)
help-draw = Draw every round's tables and seats for the registered players (seating CSV: round,table,seat,player)
help-draw-example = aufsicht draw --rules merkur --participants liste.csv --out sitzplan.csv
help-draw--rules = Rule set id or the path of a rule file (its rounds and table sizes)
help-draw--participants = The registered players: a CSV with the columns number and name (further columns are kept), or one number per line
help-draw--out = Where the seating goes (CSV: round,table,seat,player)
help-draw--rounds = How many rounds to draw (default: the rule set's)
help-draw--seed = The same seed gives the same draw (default: a new one, printed)
help-draw--hall = Also write the hall's papers (PDF): the table list of every round and a slip per player with their table and seat in each round
help-draw--tournament = The tournament's name, as the hall's papers head it
help-print = Print one sheet per drawn table and round, with its players and a code that `scan` reads (PDF at 300 dpi)
help-print-example = aufsicht print --rules merkur --seating sitzplan.csv --participants liste.csv --out listen.pdf
help-print--rules = Rule set id or the path of a rule file
help-print--seating = The seating `draw` wrote (CSV: round,table,seat,player)
help-print--participants = The registered players (for their names)
help-print--out = Where the sheets go (PDF, one page per table and round)
help-print--form = The form to print on (default: the rule set's game's built-in form)
help-print--round = Print only this round
help-print--tournament = The tournament's name; the code carries its tag, so sheets of another night are told apart
help-standings = Rank the night's players from the sheet results in DIRs (CSV to stdout)
help-standings-example = aufsicht standings --rules merkur --archive verein.sqlite > rangliste.csv
help-standings--rules = Rule set id or the path of a rule file (its tie-breaks order equal totals)
help-standings--checks = Where the night checks go (CSV); default: standings-checks.csv in the first DIR, or beside the archive
help-standings--participants = The night's registered participant numbers: numbers nobody registered and registered players on no sheet become night checks
help-standings--seating = The night's seating (`draw`): drawn tables with no sheet, and sheets whose players or seats are not the drawn ones, become night checks
help-standings--archive = A night of this archive instead of folders of results: the sheets as they stand there, corrections and verdicts included
help-standings--tournament = The night in --archive, by its name or its date (YYYY-MM-DD); may be left out when the archive holds one
help-standings--dirs = Folders of sheet results (*.json), e.g. one per round
help-writers = The Schreiber's ledger: per Schreiber the errors of their sheets, whose points they moved, and whether they fall their own way more often than chance would (JSON or CSV)
help-writers-example = aufsicht writers --rules merkur --archive club.sqlite --format csv --out writers.csv
help-writers--rules = Rule set id or the path of a rule file
help-writers--format = json (default) or csv
help-writers--out = The file to write (default: standard output)
help-writers--writer_seat = The Schreiber's seat where the club names another than the first
help-writers--archive = The nights of this archive instead of folders: the sheets as they stand there, corrections and verdicts included
help-writers--tournament = One night of --archive (by name or date); without it every night
help-writers--dirs = Folders of typed sheets or results (*.json), one a night
help-writers--club = The club's file (`[writers] seat = N`: the Schreiber's seat)
help-writers--seating = The seating (`draw`): its `writer` column marks each table's Schreiber, where it has one
writers-flagged = Schreiber { $player }: conspicuous: { $favouring } of { $errors } errors in their own favour, { $points } points (p = { $p })
writers-not-flagged = Schreiber { $player }: { $favouring } of { $errors } errors in their own favour, { $points } points (p = { $p }): not conspicuous
writers-page-title = The Schreiber: { $what }
writers-page-season = the whole season
writers-page-help = Per Schreiber the sure errors of their sheets (no reading in doubt), and whose points they moved. p is the chance that this many errors or more favour the Schreiber by chance; conspicuous means p below 0.01 with at least three errors.
writers-page-writer = Schreiber { $player }
writers-page-seat = The Schreiber of a sheet is whoever sits on seat { $seat }, where the seating names no other seat for a table.
writers-unflagged-word = nothing stands out
writers-chance = This one-sided only about 1 in { $n } times by chance.
writers-chance-rarer = This one-sided less than 1 in { $n } times by chance.
writers-chance-often = This one-sided often by chance as well.
writers-col-player = Schreiber
writers-col-sheets = sheets
writers-col-errors = errors
writers-col-favouring = in own favour
writers-col-self = points to self
writers-col-partners = to the others
writers-col-others = against the others
writers-col-flagged = finding
writers-flagged-word = conspicuous
writers-col-night = night
writers-col-sheet = sheet
writers-col-round = round
writers-col-table = table
writers-col-seat = seat
writers-col-written = written
writers-col-computed = from the rows
writers-col-moved = moved
help-season = The club's season table over the archive's nights (CSV to stdout)
help-season-example = aufsicht season --archive verein.sqlite --club verein.toml --page saison.html
help-season--archive = The club's archive (what `scan --archive` fills)
help-season--from = The first night's date counted (YYYY-MM-DD)
help-season--to = The last night's date counted (YYYY-MM-DD)
help-season--club = The club's file: `[season] best = N`, `min_nights = M`, `qualify = K`
help-season--page = Also write the table as a page to print (HTML)
help-season--format = csv: the contract's CSV; csv-de: for a spreadsheet in German (semicolons, BOM, German heads, the names)
help-export = Write an archived night back out: one contract JSON per sheet and values.csv
help-export-example = aufsicht export --archive verein.sqlite --out export/
help-export--archive = The club's archive (what `scan --archive` fills)
help-export--tournament = The night, by its name or its date (YYYY-MM-DD); may be left out when the archive holds one
help-export--out = The folder the sheets' JSON and values.csv go to (made if missing)
help-export--season = Every night of the archive, each in a folder of its own, with `nights.csv` naming them (docs/night.md)
help-export--from = With --season: the first night's date (YYYY-MM-DD)
help-export--to = With --season: the last night's date (YYYY-MM-DD)
help-push = Send a venue's nights into a series' central archive (PostgreSQL): only what it lacks, again and again as the venue decides more
help-push-example = aufsicht push --archive post.sqlite --to postgres://cup@server/cup --venue "Gasthof Post"
help-push--archive = The venue's archive (only read)
help-push--central = The central archive: postgres://USER@HOST[:PORT]/DB
help-push--venue = The venue its nights are kept under (default: the archive file's name without its ending)
help-push--tournament = Only this night, by its name or its date (YYYY-MM-DD)
help-correct = Take a person's corrected sheet result into the archive: re-verified, every changed value recorded with who and when. Prints the new result
help-correct-example = aufsicht correct --archive verein.sqlite --by AB tisch07.json
help-correct--archive = The club's archive the sheet was scanned into
help-correct--tournament = The night, by its name or its date; may be left out when the archive holds one
help-correct--rules = Rule set id or the path of a rule file (default: the one the sheet was scanned with, as the archive keeps it)
help-correct--by = Who corrected it (name or initials), for the trail
help-correct--counts = The values changed are what counts where the writer erred (the Leitung's decision), not what the paper says; needs --reason
help-correct--reason = Why the counted values count (with --counts)
help-correct--confirm = A value (endergebnis/2, games/5/1/plus) the paper says as the sheet gives it, though unchanged: its doubt is settled
help-value-confirm = PATH
help-value-reason = REASON
help-value-blank = BLANK
help-value-dest = DEST
help-value-dir = DIR
help-value-games = GAMES
help-value-scan = SCAN
help-value-seats = SEATS
correct-bad-path = "{ $path }" is no value of a sheet (such as endergebnis/2 or games/5/1/plus)
help-correct--sheet = The corrected sheet result (a scan's JSON, edited)
help-archive = The archive's upkeep: `archive backup FILE DEST` copies it while in use
help-archive-example = aufsicht archive backup verein.sqlite sicherung.sqlite
help-archive-backup = Copy a consistent archive while the desk or a scan uses it (SQLite's online backup; the copy appears whole or not at all)
help-archive-backup--archive = The archive
help-archive-backup--dest = The copy (replaced)
help-archive-check = Hold every kept scan to its hash and every stored result to its hash and its values; fails when anything was altered
help-archive-check--archive = The archive
help-audit = A player's night (every sheet they sat at) or one sheet, from the archive: crops, readings, arithmetic and every change (HTML or JSON)
help-audit-example = aufsicht audit --archive verein.sqlite --player 417 --out 417.html
help-audit--archive = The club's archive (what `scan --archive` fills)
help-audit--player = The participant number whose night is audited (every sheet they sat at)
help-audit--sheet = The archive id of the sheet audited (as the desk lists it)
help-audit--writers = Instead of a player or a sheet: the Schreiber's ledger (the season, or the night --tournament names) as a page
help-audit--writer_seat = With --writers: the Schreiber's seat where the club names another than the first
help-audit--tournament = One night, by its name or date; without it a player's audit covers every night they played, and a sheet is found in any night
help-audit--rules = The rule set to rank one night by (the night --tournament names, or the archive's only one); default: the one it was scanned with
help-audit--club = The club's file (`[season]`): the season's line under its rule
help-audit--format = A page to print and read (html) or the audit as data (json)
help-audit--out = The file the audit is written to
help-review = Write the night's review page: one self-contained HTML file, flagged sheets first
help-review-example = aufsicht review --serve --archive verein.sqlite
help-review--out = The HTML file to write (the offline page)
help-review--title = The page's title (default: the night's review, in the run's language)
help-review--serve = Serve the review desk over the archive instead: a local web application whose corrections land in the archive at once
help-review--listen = Where the desk listens: this computer only unless told otherwise (another address needs the token it prints)
help-review--archive = The night's archive (what `scan --archive` filled)
help-review--rules = Rule set id or the path of a rule file, to verify corrected sheets (default: the one the night was scanned with, as the archive keeps it)
help-review--participants = The night's registered participants: their names beside the numbers, and (the desk) the standings' checks
help-review--seating = The night's seating (`draw`), for the standings' checks
help-review--tournament = The tournament's name; may be left out when the archive holds one. With --rules the desk makes a night (and an archive) that does not exist yet: a night from phones alone
help-review--club = The club's file: the season's rule (`[season]`) for a player's audit over every night, the member list's names on every page
help-review--dirs = Folders of sheet results (*.json) whose scans are still where they were read
help-render-form = Render a blank form to print (PNG or PDF by the file's extension)
help-render-form-example = aufsicht render-form --form punkteliste-a4-32 --out leer.pdf
help-render-form--form = Form id (punkteliste-a4-32, doko-a4-24x5) or a template's path
help-render-form--dpi = Dots per inch of the page drawn (50 to 1200)
help-render-form--out = The file to write: PNG or PDF, by its extension
help-generate = Write the man page or a shell's completions to standard output
help-generate-example = aufsicht generate man | gzip > aufsicht.1.gz
help-generate--what = What to write to standard output
help-install-path = For the Windows installer: put a folder on the machine's PATH or take it off, every other entry left as it is
help-install-path-example = aufsicht install-path add "C:\Program Files\aufsicht"
help-install-path--change = add or remove
help-install-path--dir = The folder
install-path-failed = The machine's PATH could not be changed: { $problem }
install-path-windows-only = install-path changes a Windows machine's PATH; there is none here.
help-default = default: { $value }
help-possible = possible: { $values }
help-options = OPTIONS
help-review--hosts = A name the desk is reached by (on the club's network, or a proxy's); addresses and localhost always are, any other name is refused
help-review--behind_proxy = A proxy (TLS) on this computer forwards to the desk: every client needs the token, and the proxy's https:// origin counts as the desk's
serve-no-archive-in = no archive (*.sqlite) in { $path }
serve-no-browser = could not open the browser ({ $problem }); please open { $url } yourself
help-review--newest = Instead of --archive: the newest archive (*.sqlite) in this folder (the Start-menu entry on Windows)
help-review--open = Open the desk in the default browser once it listens
help-review--date = The night's date (3.10.2026 or 2026-10-03), where the desk makes it
scans-bad-request = the request cannot be read (no complete form with files)
scans-request-too-large = the request is larger than { $mb } MB: send fewer photos at once
scans-busy = several requests are being read already: please send again in a moment
scans-other-night = this key belongs to another night than "{ $night }"
scans-not-kept = the file could not be stored in { $folder }: nothing of it is stored
scans-too-many = at most { $count } files at once
scans-too-large = larger than { $mb } MB: not taken
scans-not-a-scan = no image (JPEG, PNG, TIFF) and no PDF: not taken
scans-empty = empty file (0 bytes): not taken; send the photo again
scans-no-receipt = only who sent a photo can take it back
scans-decided = the desk has decided on this sheet already: take it back there
scans-phone = phone
scans-taken-back = taken back from the phone
scans-taken-back-said = taken back: it does not count
sent-at = Round { $round }, table { $table }
sent-unknown = ?
sent-read = read, all correct
sent-to-check = read, { $count ->
        [one] one place
       *[other] { $count } places
    } to check
sent-other-game = a sheet of another game: it does not count until the desk decides
sent-table-there = the desk has this table already: photographed twice? Then take the second photo back
sent-unreadable = not readable: please take it again
sent-unreadable-because = not readable ({ $why }): please take it again
sent-duplicate = this photo is here already, nothing stored twice
desk-discard-reason = sent by mistake
desk-discard = Discard (Del)
desk-discarded = discarded
desk-undiscard = keep after all
desk-undone = taken back
desk-nothing-to-undo = nothing to take back
desk-blank = blank
desk-history = The sheet's history
desk-history-heads = When|Who|What|Field|Before|After
desk-history-kinds = reading=read|paper=value on paper|counts=counts instead|initials=initials|void=invalid|copy=copy|game=game|discard=discarded|withdraw=answer taken back|form=form
desk-capture = Take photos with a phone: scan this code
desk-capture-loopback = Phones cannot reach the desk like this: start it with --listen 0.0.0.0:8377, and their code shows here.
desk-copy-of = is a copy of
desk-uncopy = no copy after all
desk-our-game = this night's game after all
desk-game-confirmed = declared this night's game
desk-not-our-game = another game after all
desk-reread = Read again
desk-form = Form
desk-header-off = the header does not lie where the form has it
capture-title = Photograph the sheets
capture-dead-link = This link opens nothing: its key is wrong or was renewed; please scan the code at the desk again.
capture-help = Each sheet flat and whole in the picture, in good light. Every photo goes to the desk at once; take again whatever cannot be read while the sheet is still on the table.
capture-take = Take photos
capture-sending = sending …
capture-dark = Too dark: please take it again in more light.
capture-blurred = Blurred: please take it again, holding still.
capture-failed = not sent
capture-ok = read
capture-flagged = read, with flags
capture-unreadable = not readable
capture-duplicate = already there
capture-refused = not taken
capture-take-back = Take back
form-no-page = { $path }: no page in it
form-checked = { $path } written: { $boxes } fields over the scan (its lines met at { $fit } %)
form-checked-header = Header: its lines met at { $lines } %, { $found } of { $labels } labels in their place
form-header-does-not-fit = The form's header does not lie where the template has it: `scan` would ask the round, table and player numbers of every sheet.
help-form = A club's own form: learn it from its blank, check it against a scan
help-form-example = aufsicht form learn blank.jpg --out club-sheet.json
help-form-learn = Learn a form from a scan or photo of its blank and write it as a template
help-form-learn--blank = A scan or photo of the empty form (the first page of a PDF)
help-form-learn--seats = The form's number of players (a check only: the page is counted)
help-form-learn--games = The form's number of game rows (a check only)
help-form-learn--out = The template to write (JSON), for `scan --form`
help-form-learn-example = aufsicht form learn blank.jpg --out club-sheet.json
form-learned = { $path } written: { $seats } players, { $games } game rows, { $labels } labels read{ $title }
form-learned-title = , title "{ $title }"
learn-not-learned = { $path }: no blank form learnt: { $why }
learn-no-table = no ruled table found
learn-cut-off = the page is cut off at its { $edge } edge: the table runs out of the picture
edge-left = left
edge-right = right
edge-top = top
edge-bottom = bottom
learn-no-seats = no player columns (a + and a − each) found in the table
learn-too-few-rows = only { $found } game row(s) found: a form needs at least two
learn-no-check-column = no Aufs. column found right of the player columns
learn-no-footer = no footer rows (Gesamt, Abzug, Endergebnis) found below the game rows
learn-no-player-block = no player block (Teilnehmer-Nr., name) found above the table
learn-no-round-and-table = no boxes for round and table found
learn-no-signatures = no signature row found below the table
learn-filled = { $cells } game cells hold writing: this is a filled sheet, not the blank form
learn-seats-differ = the page has { $found } players, { $hinted } were given
learn-games-differ = the page has { $found } game rows, { $hinted } were given
help-form-check = Draw every box of a form over a scan (the first page of a PDF)
help-form-check--form = The form: a shipped one (punkteliste-a4-32, doko-a4-24x5) or a template's path
help-form-check--scan = A scan or photo of a sheet printed on that form
help-form-check--out = The picture to write (PNG): the sheet straightened, every box outlined
help-form-check-example = aufsicht form check club-sheet.json scan.jpg --out fits.png
form-does-not-fit = The form does not fit this scan: only { $fit } % of its lines met, `scan` needs { $least } %.
reread-unreadable = sheet { $id } cannot be read on this form: it stays as it is
copy-missing = there is no sheet { $of }: a copy is one of a sheet of this night
copy-unreadable = sheet { $of } is unreadable: a copy is one of a readable sheet
copy-void = sheet { $of } is declared invalid or discarded: a copy is one of a sheet that counts
copy-is-copy = sheet { $of } is itself a copy: name the original
copy-has-copies = other sheets are declared copies of this one: take those back first
counts-no-reason = what counts needs a reason
writers-seat-outside = there is no writer seat { $seat } at any table: the tables have seats 1 to { $seats }
writers-seating-one-night = a seating belongs to one night: name it with --tournament
check-settled = settled by { $by }
count-said = written { $written }, counts { $value }, { $by }: { $reason }
desk-ask-paper = What does the paper say?
desk-ask-counts = What counts?
desk-counts-reason = Reason
desk-counts-set = this counts
desk-counted = decided what counts
desk-settled = settled
action-sheet-unreadable = on the sheet, “Read again” on the right form; sent by mistake: “Discard” (Del)
action-round-or-table-missing = on the sheet, type round and table (What does the paper say?)
action-player-id-unreadable = on the sheet, type the seat's participant number (What does the paper say?)
action-table-twice = if it is the same paper: on the later one, “is a copy of”; else correct round or table on the sheet
action-player-twice-in-round = check and correct the participant numbers on the sheets named (What does the paper say?)
action-player-missing-round = scan the missing sheet or take it with the phone, or correct the participant number on the sheet
action-player-not-registered = correct the participant number on the sheet (What does the paper say?), or add the player to the list
action-registered-without-sheet = scan the missing sheet or take it with the phone; a player who did not come has no sheet
action-table-without-sheet = scan the table's sheet or take it with the phone, or correct round and table on the sheet read
action-seating-differs = check the participant numbers on the sheet; a change of seats needs nothing more
action-sheet-discarded = on the sheet, “keep after all” if it belongs to the night
action-sheet-void = on the sheet, “valid again” if it counts after all
action-sheet-twice = on the later sheet, “is a copy of”
action-rows-copied = look at both sheets; if one is false, “declare the sheet invalid”
action-wrong-game = on the sheet, “this night's game after all”, else “declare the sheet invalid”
action-sheets-in-doubt = look at the flagged sheets at the desk
place-game = game { $row }, seat { $seat }, { $column }
place-gesamt = seat { $seat }, Gesamt { $column }
place-abzug = seat { $seat }, Abzug
place-endergebnis = seat { $seat }, Endergebnis
place-player = seat { $seat }, participant number
place-round = round
place-table = table

## Questions at the desk
question-stale = question { $id } is no longer asked: answered, or its cells changed. Please load the questions again.
question-not-asked = sheet { $sheet }, { $path } is not a cell of this question
question-value-or-cells = an answer names a value ("value") or its cells ("cells"), not both, not neither
question-settled = read surely after { $by }'s answer "{ $value }"
desk-questions = Questions
desk-question-help = Type what the paper says, Enter answers every cell shown (empty: the suggestion) · Alt and a cell's number takes it out, it stays asked · Esc: next question
desk-no-questions = No questions open.
desk-question-read = read
desk-question-answered = answered:
desk-question-sums = the sums give
desk-discard-ask = Take this readable sheet out of the night (discard)? Strg-Z brings it back.
desk-question-sending = saving …
desk-no-crop = No image of this cell is at hand
question-blank = blank
question-reread = read again after { $by }'s answer "{ $value }", still asked
question-cell-at = round { $round }, table { $table }
desk-question-cells = cells
desk-question-cell = cell
desk-question-of = question
desk-crop-no-path = Which cell? The request names it with ?path=
push-missing = the venue's archive { $path } does not exist
push-default-name = the archive is called aufsicht.sqlite, as every venue's is where the scan was given no name: name the venue with --venue NAME
push-venue = the venue's name "{ $venue }" will not do: it must not be empty nor hold a "/" (--venue NAME)
push-to = { $to } is no central archive: --to names a PostgreSQL server, postgres://USER@HOST[:PORT]/DB
push-bar = {"{"}bar:30{"}"} {"{"}pos{"}"}/{"{"}len{"}"} steps  {"{"}msg{"}"}  {"{"}elapsed{"}"} elapsed
push-done = { $venue }: { $nights ->
        [one] 1 night
       *[other] { $nights } nights
    } with { $sheets ->
        [one] 1 sheet
       *[other] { $sheets } sheets
    } in the central archive; newly sent: { $new ->
        [one] 1 sheet
       *[other] { $new } sheets
    }, { $scans ->
        [one] 1 scan
       *[other] { $scans } scans
    }, { $readings ->
        [one] 1 reading
       *[other] { $readings } readings
    }, { $decisions ->
        [one] 1 decision
       *[other] { $decisions } decisions
    }, { $lines ->
        [one] 1 trail line
       *[other] { $lines } trail lines
    }
