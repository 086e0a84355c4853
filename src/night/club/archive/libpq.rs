//! A server's address as libpq (`psql`) reads it: what the URL leaves out
//! comes from `PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGSSLMODE` and
//! `PGPASSWORD`, else the password file (`PGPASSFILE`, or `~/.pgpass`),
//! so that no password need stand in an address (`ps` shows addresses).

use std::path::PathBuf;

use postgres::Config;
use postgres::config::{Host, SslMode};

/// The environment a server's address is completed from (a test gives its own).
pub trait Env {
    fn var(&self, name: &str) -> Option<String>;
}

/// The process's environment.
pub struct Process;

impl Env for Process {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok().filter(|v| !v.is_empty())
    }
}

/// `url` with `PGPORT`'s port where it names none (a parsed address
/// holds the default port already, so the port goes in before parsing).
pub fn with_port(url: &str, env: &dyn Env) -> String {
    let Some(port) = env.var("PGPORT").filter(|p| p.parse::<u16>().is_ok()) else {
        return url.to_string();
    };
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if host.is_empty() || host.contains(':') {
        return url.to_string();
    }
    format!("{scheme}://{authority}:{port}{tail}")
}

/// Fills in what `config` (parsed from `url`) leaves out, as libpq does:
/// what the address says wins.
pub fn complete(config: &mut Config, url: &str, env: &dyn Env) {
    if config.get_hosts().is_empty() {
        let host = env.var("PGHOST").unwrap_or_else(|| "localhost".into());
        config.host(&host);
    }
    if config.get_user().is_none()
        && let Some(user) = env.var("PGUSER").or_else(|| env.var("USER"))
    {
        config.user(&user);
    }
    if config.get_dbname().is_none()
        && let Some(db) = env.var("PGDATABASE")
    {
        config.dbname(&db);
    }
    if !url.contains("sslmode=")
        && let Some(mode) = env.var("PGSSLMODE").and_then(|m| ssl_mode(&m))
    {
        config.ssl_mode(mode);
    }
    if config.get_password().is_none()
        && let Some(password) = env.var("PGPASSWORD").or_else(|| from_file(config, env))
    {
        config.password(password);
    }
}

fn ssl_mode(mode: &str) -> Option<SslMode> {
    match mode {
        "disable" => Some(SslMode::Disable),
        "allow" | "prefer" => Some(SslMode::Prefer),
        "require" | "verify-ca" | "verify-full" => Some(SslMode::Require),
        _ => None,
    }
}

/// The password the password file gives for `config`'s host, port,
/// database and user (the first line that fits, `*` fitting anything).
fn from_file(config: &Config, env: &dyn Env) -> Option<String> {
    let path = match env.var("PGPASSFILE") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env.var("HOME")?).join(".pgpass"),
    };
    let text = std::fs::read_to_string(path).ok()?;
    let host = match config.get_hosts().first()? {
        Host::Tcp(h) => h.clone(),
        #[cfg(unix)]
        Host::Unix(_) => "localhost".to_string(),
    };
    let port = config
        .get_ports()
        .first()
        .copied()
        .unwrap_or(5432)
        .to_string();
    let user = config.get_user()?.to_string();
    let db = config.get_dbname().map_or(user.clone(), str::to_string);
    let wanted = [host, port, db, user];
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(fields)
        .find(|f| f.len() == 5 && (0..4).all(|i| f[i] == "*" || f[i] == wanted[i]))
        .map(|f| f[4].clone())
}

/// A password file's line split at its unescaped colons (`\:` and `\\`
/// stand for themselves).
fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out
                .last_mut()
                .into_iter()
                .for_each(|f| f.extend(chars.next())),
            ':' => out.push(String::new()),
            c => out.last_mut().into_iter().for_each(|f| f.push(c)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct Given(HashMap<&'static str, String>);

    impl Env for Given {
        fn var(&self, name: &str) -> Option<String> {
            self.0.get(name).cloned()
        }
    }

    fn completed(url: &str, env: &[(&'static str, String)]) -> Config {
        let given = Given(env.iter().cloned().collect());
        let url = with_port(url, &given);
        let mut config: Config = url.parse().expect("address");
        complete(&mut config, &url, &given);
        config
    }

    #[test]
    fn the_environment_should_fill_what_the_address_leaves_out() {
        let env = [
            ("PGPASSWORD", "geheim".to_string()),
            ("PGUSER", "cup".to_string()),
            ("PGDATABASE", "pokal".to_string()),
            ("PGPORT", "5433".to_string()),
        ];
        let c = completed("postgres://server", &env);
        assert_eq!(c.get_password(), Some(&b"geheim"[..]));
        assert_eq!(c.get_user(), Some("cup"));
        assert_eq!(c.get_dbname(), Some("pokal"));
        assert_eq!(c.get_ports(), [5433]);
        // What the address says stands.
        let c = completed("postgres://anna:pw@server:5432/verein", &env);
        assert_eq!(c.get_password(), Some(&b"pw"[..]));
        assert_eq!(
            (c.get_user(), c.get_dbname()),
            (Some("anna"), Some("verein"))
        );
    }

    #[test]
    fn no_password_should_stand_in_an_address_as_shown() {
        use crate::night::club::archive::shown_address;
        assert_eq!(
            shown_address("postgres://cup:Geheim@server:5432/pokal"),
            "postgres://cup@server:5432/pokal"
        );
        assert_eq!(
            shown_address("postgres://cup@server/pokal?password=Geheim&sslmode=disable"),
            "postgres://cup@server/pokal?sslmode=disable"
        );
    }

    #[test]
    fn the_address_sslmode_should_win_over_the_environment() {
        let env = [("PGSSLMODE", "require".to_string())];
        let c = completed("postgres://cup@server/pokal?sslmode=disable", &env);
        assert_eq!(c.get_ssl_mode(), SslMode::Disable);
        let c = completed("postgres://cup@server/pokal", &env);
        assert_eq!(c.get_ssl_mode(), SslMode::Require);
    }

    #[test]
    fn the_password_file_should_give_the_first_line_that_fits() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("pgpass");
        let lines = "# a comment\nother:5432:*:cup:nein\nserver:5432:pokal:cup:ja\\:wirklich\n*:*:*:*:sonst\n";
        std::fs::write(&file, lines).expect("write");
        let env = [("PGPASSFILE", file.display().to_string())];
        let c = completed("postgres://cup@server/pokal", &env);
        assert_eq!(c.get_password(), Some(&b"ja:wirklich"[..]));
        let c = completed("postgres://anna@elsewhere/x", &env);
        assert_eq!(c.get_password(), Some(&b"sonst"[..]));
    }
}
