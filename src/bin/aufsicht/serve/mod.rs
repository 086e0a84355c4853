//! `review --serve`: the review desk, a local web application over the
//! night's archive. Pages, script and styles are compiled in (it works
//! offline); every correction is stored at once with its trail and the
//! sheet verified again.

mod api;
mod capture;
mod guard;
mod pages;
mod powers;
mod questions;
mod refusals;
mod scans;
mod view;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::Result;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

use aufsicht::catalogue::say;
use aufsicht::night::club::archive::Archive;
use aufsicht::night::club::archive::with_kept;
use aufsicht::night::club::season::SeasonRule;
use aufsicht::night::tournament::names::Names;
use aufsicht::night::tournament::participants::Participants;
use aufsicht::night::tournament::seating::Seating;
use aufsicht::page::form::FormTemplate;
use aufsicht::{Lang, RuleSet};

use crate::common::{Told, load_participants, load_rules, open_archive};

/// What `review --serve` is started with.
pub struct ServeOptions {
    pub listen: SocketAddr,
    /// Open the desk in the default browser once it listens.
    pub open: bool,
    pub archive: PathBuf,
    /// The opened night's rule set; default: the one it was scanned with.
    pub rules: Option<String>,
    pub participants: Option<PathBuf>,
    pub seating: Option<PathBuf>,
    pub tournament: Option<String>,
    /// The night's date, where the desk makes the night.
    pub date: Option<chrono::NaiveDate>,
    /// The club's file (CLUB.toml).
    pub club: Option<PathBuf>,
    /// Names the desk is reached by besides its addresses and `localhost`.
    pub hosts: Vec<String>,
    /// A proxy on this computer forwards to the desk: no client without the token.
    pub behind_proxy: bool,
    pub title: String,
}

/// The desk's archive, opened again where its server's connection broke
/// (the server restarted): the next request after it answers again.
pub(crate) struct KeptArchive {
    archive: Mutex<Archive>,
    place: std::path::PathBuf,
}

impl KeptArchive {
    /// The archive to use, alone; a broken connection replaced first
    /// (where the server is still away, the request fails as before).
    pub(crate) fn lock(&self) -> std::sync::LockResult<std::sync::MutexGuard<'_, Archive>> {
        let mut archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        if archive.is_broken()
            && let Ok(fresh) = Archive::open(&self.place)
        {
            *archive = fresh;
        }
        Ok(archive)
    }

    /// The archive behind its lock, its connection made good first, for
    /// the library's work that takes the lock itself.
    pub(crate) fn fresh(&self) -> &Mutex<Archive> {
        drop(self.lock());
        &self.archive
    }
}

/// Where the desk puts the photos sent to it before they are read (each
/// is kept in the archive as it is stored): beside an archive file; for
/// a server, in the system's folder for such files, never in a folder
/// named after the server's address (which may hold its password).
fn photos_beside(archive: &std::path::Path) -> std::path::PathBuf {
    use sha2::Digest;
    if !aufsicht::night::club::archive::is_server(archive) {
        return archive
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default();
    }
    // One folder a server (its address without the password) and user.
    let shown = aufsicht::night::club::archive::shown_place(archive);
    let user = std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .unwrap_or_default();
    let hash = sha2::Sha256::digest(format!("{user}\n{shown}").as_bytes());
    let name: String = hash.iter().take(6).map(|b| format!("{b:02x}")).collect();
    std::env::temp_dir().join(format!("aufsicht-desk-{name}"))
}

/// Everything the desk's requests share.
pub struct Desk {
    archive: KeptArchive,
    /// The night the desk opened on; its rules, list and draw are the
    /// command line's. Every other night is checked by the rule set it
    /// was scanned with.
    opened: i64,
    rules: RuleSet,
    participants: Option<Participants>,
    seating: Option<Seating>,
    /// The club's season rule, for a player's audit over every night.
    season: SeasonRule,
    /// The club's member list: names no night's list gives.
    members: Names,
    /// The Schreiber's seat the club names (the ledger's; default 1).
    writer_seat: usize,
    forms: Vec<FormTemplate>,
    images: view::Images,
    /// The questions' shapes seen so far, and the readers an answer
    /// reads the hand again with (made at the first answer).
    asking: questions::Asked,
    /// The archive's folder: scans named relative to it are found there.
    archive_dir: PathBuf,
    /// The archive's file, for reading sent scans into it.
    archive_file: PathBuf,
    /// Where another computer (a phone) reaches the desk, once it listens.
    reached: std::sync::OnceLock<SocketAddr>,
    lang: Lang,
    door: guard::Door,
    /// Requests with scans read at once ([`scans::MAX_AT_ONCE`]).
    uploads: tokio::sync::Semaphore,
    title: String,
}

pub fn run(o: ServeOptions, lang: Lang) -> Result<()> {
    let participants = load_participants(o.participants.as_deref(), lang)?;
    let seating = o
        .seating
        .as_deref()
        .map(|p| crate::common::load_seating(p, lang))
        .transpose()?;
    let club = crate::season::club_file(o.club.as_ref(), lang)?;
    let (mut archive, opened) = open_night(&o, lang)?;
    let members = crate::season::members_of(&club, lang)?;
    let rules = match &o.rules {
        Some(r) => load_rules(r, lang)?,
        None => load_rules(&archive.rules_of(opened).told(lang)?, lang)?,
    };
    // The list given keeps its names with the night: every page shows them.
    if let Some(list) = &participants {
        archive.keep_names(opened, list.names()).told(lang)?;
    }
    // The club's own forms its nights keep: their sheets cut, their photos read.
    let forms = with_kept(&FormTemplate::builtins(), archive.forms().told(lang)?);
    // The phones' links of every night outlive a restart.
    let keys = archive.capture_keys().told(lang)?;
    // And the key of other computers (a second reviewer's laptop).
    let token = archive.desk_key(guard::new_token).told(lang)?;
    let desk = Arc::new(Desk {
        archive: KeptArchive {
            archive: Mutex::new(archive),
            place: o.archive.clone(),
        },
        opened,
        rules,
        participants,
        seating,
        season: club.season,
        members,
        writer_seat: club.writer_seat.unwrap_or(1),
        forms,
        images: view::Images::default(),
        asking: questions::Asked::default(),
        archive_dir: photos_beside(&o.archive),
        archive_file: o.archive.clone(),
        reached: std::sync::OnceLock::new(),
        lang,
        door: guard::Door {
            names: o.hosts,
            behind_proxy: o.behind_proxy,
            phones: Arc::new(Mutex::new(keys.into_iter().collect())),
            ..guard::Door::new(&token)
        },
        uploads: tokio::sync::Semaphore::new(scans::MAX_AT_ONCE),
        title: o.title,
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(serve(desk, (o.listen, o.open), o.archive))
}

/// The archive and the night the desk opens on. Given the rules and the
/// night's name, the desk makes what does not exist yet (a night filled
/// from phones alone needs no scan first), and says so in one line.
fn open_night(o: &ServeOptions, lang: Lang) -> Result<(Archive, i64)> {
    let made = |archive: &Archive, name: &str, rules: &str, id: &str| -> Result<i64> {
        let night = archive.tournament(name, rules).told(lang)?;
        if let Some(date) = o.date {
            archive.date(night, date).told(lang)?;
        }
        let path = aufsicht::night::club::archive::shown_place(&o.archive);
        let args: [(&str, &dyn std::fmt::Display); 3] =
            [("path", &path), ("night", &name), ("rules", &rules)];
        eprintln!("aufsicht: {}", say(lang, id, &args));
        Ok(night)
    };
    let wanted = o.rules.as_deref().zip(o.tournament.as_deref());
    if !o.archive.is_file()
        && !aufsicht::night::club::archive::is_server(&o.archive)
        && let Some((rules, name)) = wanted
    {
        let rules = load_rules(rules, lang)?.id;
        let archive = Archive::open(&o.archive).told(lang)?;
        let night = made(&archive, name, &rules, "serve-made-archive")?;
        return Ok((archive, night));
    }
    let archive = open_archive(&o.archive, lang)?;
    let Some(name) = o.tournament.as_deref() else {
        let night = archive.newest_night().told(lang)?;
        return Ok((archive, night));
    };
    let night = match archive.pick_tournament(Some(name)) {
        Ok(night) => night,
        Err(aufsicht::error::ArchiveError::NoTournament { .. }) if o.rules.is_some() => {
            let rules = load_rules(o.rules.as_deref().unwrap_or_default(), lang)?.id;
            made(&archive, name, &rules, "serve-made-night")?
        }
        Err(e) => return Err(e).told(lang),
    };
    if let Some(date) = o.date {
        archive.date(night, date).told(lang)?;
    }
    Ok((archive, night))
}

fn router(desk: Arc<Desk>) -> Router {
    Router::new()
        .route("/", get(pages::desk))
        .route("/standings", get(pages::standings))
        .route("/ranking", get(pages::ranking))
        .route("/audit", get(pages::audit))
        .route("/writers", get(pages::writers))
        .route("/assets/{name}", get(pages::asset))
        .route("/api/nights", get(api::nights))
        .route("/api/sheets", get(api::sheets))
        .route("/api/sheets/{id}", get(api::sheet))
        .route("/api/sheets/{id}/view", get(api::view))
        .route("/api/sheets/{id}/crop", get(questions::crop))
        .route("/api/sheets/{id}/trail", get(api::trail))
        .route(
            "/api/sheets/{id}/values",
            post(powers::power::<powers::ValuesBody>),
        )
        .route(
            "/api/sheets/{id}/counts",
            post(powers::power::<powers::CountsBody>),
        )
        .route(
            "/api/sheets/{id}/initials",
            post(powers::power::<powers::InitialsBody>),
        )
        .route(
            "/api/sheets/{id}/verdict",
            post(powers::power::<powers::VerdictBody>),
        )
        .route(
            "/api/sheets/{id}/copy",
            post(powers::power::<powers::CopyBody>),
        )
        .route(
            "/api/sheets/{id}/discard",
            post(powers::power::<powers::DiscardBody>),
        )
        .route(
            "/api/sheets/{id}/withdraw",
            post(powers::power::<powers::WithdrawBody>),
        )
        .route("/api/sheets/{id}/reread", post(scans::reread))
        .route(
            "/api/sheets/{id}/game",
            post(powers::power::<powers::GameBody>),
        )
        .route("/api/questions", get(questions::list))
        .route("/api/questions/{id}", post(questions::answer))
        .route("/api/login", post(api::login))
        .route("/api/standings", get(api::standings))
        .route("/api/checks", get(api::checks))
        .route("/api/writers", get(api::writers))
        .route("/capture", get(capture::page))
        .route("/api/capture", get(capture::code).post(capture::renew))
        .route(
            "/api/scans",
            post(scans::upload).layer(DefaultBodyLimit::max(scans::MAX_REQUEST)),
        )
        .route("/api/scans/take-back", post(scans::take_back))
        .route("/api/audit", get(api::audit))
        .layer(axum::middleware::from_fn_with_state(
            desk.clone(),
            guard::guard,
        ))
        .with_state(desk)
}

async fn serve(
    desk: Arc<Desk>,
    (listen, open): (SocketAddr, bool),
    archive: PathBuf,
) -> Result<()> {
    let lang = desk.lang;
    let listener = tokio::net::TcpListener::bind(listen).await.map_err(|e| {
        let args: [(&str, &dyn std::fmt::Display); 2] = [("addr", &listen), ("problem", &e)];
        anyhow::anyhow!(say(lang, "serve-bind", &args))
    })?;
    let bound = listener.local_addr()?;
    let _ = desk.reached.set(lan_address(bound));
    let shown = if bound.ip().is_unspecified() {
        SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), bound.port())
    } else {
        bound
    };
    let url = format!("http://{shown}/");
    // The address first, alone on stdout: scripts and tests read it.
    crate::common::stdout_line(&url, lang)?;
    eprintln!(
        "aufsicht: {}",
        say(lang, "serve-listening", &[("url", &url)])
    );
    if !bound.ip().is_loopback() {
        eprintln!(
            "aufsicht: {}",
            say(lang, "serve-loopback-only", &[("addr", &bound)])
        );
    }
    if !bound.ip().is_loopback() || desk.door.behind_proxy {
        // In the fragment: no request, log or proxy sees it; the page
        // keeps it as a cookie and takes it out of the address.
        let remote = format!("http://{}/#token={}", lan_address(bound), desk.door.token);
        eprintln!(
            "aufsicht: {}",
            say(lang, "serve-token", &[("url", &remote)])
        );
    }
    if open && let Err(e) = open_browser(&url) {
        let args: [(&str, &dyn std::fmt::Display); 2] = [("url", &url), ("problem", &e)];
        eprintln!("aufsicht: {}", say(lang, "serve-no-browser", &args));
    }
    let app = router(desk).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    eprintln!(
        "aufsicht: {}",
        say(
            lang,
            "serve-stopped",
            &[(
                "path",
                &aufsicht::night::club::archive::shown_place(&archive)
            )]
        )
    );
    Ok(())
}

/// Opens `url` in the default browser: Windows' `start`, elsewhere
/// `xdg-open`.
fn open_browser(url: &str) -> std::io::Result<()> {
    let mut command = match cfg!(windows) {
        true => std::process::Command::new("cmd"),
        false => std::process::Command::new("xdg-open"),
    };
    if cfg!(windows) {
        command.args(["/C", "start", ""]);
    }
    command
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
}

/// The address another computer reaches: where the desk listens on all
/// interfaces, this computer's address on the network (the route a
/// datagram would take; nothing is sent).
fn lan_address(bound: SocketAddr) -> SocketAddr {
    if !bound.ip().is_unspecified() {
        return bound;
    }
    let local = std::net::UdpSocket::bind("0.0.0.0:0")
        .and_then(|s| s.connect("192.0.2.1:9").and_then(|()| s.local_addr()));
    match local {
        Ok(addr) if !addr.ip().is_unspecified() => SocketAddr::new(addr.ip(), bound.port()),
        _ => bound,
    }
}
