//! A PostgreSQL cluster of the tests' own: `initdb` and `pg_ctl` in a
//! temporary folder, as the `postgres` user where the tests run as root,
//! on a free loopback port. A watchman stops it and removes its folder
//! when the test process is gone, however it ended.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

pub struct Cluster {
    pub port: u16,
    dir: PathBuf,
    bin: PathBuf,
    /// The superuser's password, where logins need one.
    password: Option<String>,
}

/// The cluster every test of this process shares (each in its own
/// database).
pub fn shared() -> &'static Cluster {
    static SHARED: OnceLock<Cluster> = OnceLock::new();
    SHARED.get_or_init(Cluster::new)
}

/// Where Debian keeps the newest server's programs.
fn server_bin() -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|b| b.join("initdb").is_file())
        .collect();
    found.sort_by_key(|b| {
        b.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
    });
    found.pop().unwrap_or_else(|| {
        panic!("PostgreSQL's server is missing: scripts/install-deps.sh --tests installs it")
    })
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

impl Cluster {
    /// A new cluster, started, that lets loopback in without a password.
    pub fn new() -> Cluster {
        Cluster::init(None)
    }

    /// A new cluster, started, whose logins need `password` (SCRAM).
    pub fn with_password(password: &str) -> Cluster {
        Cluster::init(Some(password))
    }

    fn init(password: Option<&str>) -> Cluster {
        let bin = server_bin();
        let dir = tempfile::Builder::new()
            .prefix("aufsicht-pg-")
            .tempdir()
            .expect("temp dir")
            .keep();
        if is_root() {
            let ok = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&dir)
                .status()
                .expect("chown");
            assert!(ok.success(), "chown {}", dir.display());
        }
        let port = free_port();
        let cluster = Cluster {
            port,
            dir,
            bin,
            password: password.map(str::to_string),
        };
        let pwfile = cluster.dir.join("pwfile");
        std::fs::write(&pwfile, password.unwrap_or_default()).expect("pwfile");
        let auth = match password {
            Some(_) => format!("--auth=scram-sha-256 --pwfile={}", pwfile.display()),
            None => "--auth=trust".to_string(),
        };
        let auth: Vec<&str> = auth.split(' ').collect();
        cluster.run(
            "initdb",
            &[
                "-D",
                &cluster.data(),
                auth[0],
                auth.get(1).copied().unwrap_or("--no-instructions"),
                "-U",
                "postgres",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            ],
        );
        cluster.start();
        cluster.watch();
        cluster
    }

    fn data(&self) -> String {
        self.dir.join("data").display().to_string()
    }

    /// Runs one of the server's programs as the cluster's owner.
    fn run(&self, program: &str, args: &[&str]) {
        let path = self.bin.join(program);
        let mut cmd = if is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        let out = cmd
            .args(args)
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .output()
            .expect(program);
        assert!(
            out.status.success(),
            "{program}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    pub fn start(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            self.port,
            self.dir.display()
        );
        let log = self.dir.join("log").display().to_string();
        self.run(
            "pg_ctl",
            &[
                "-D",
                &self.data(),
                "-o",
                &options,
                "-l",
                &log,
                "-w",
                "start",
            ],
        );
    }

    /// Stops the server at once, as a crash or a pulled plug would.
    pub fn stop(&self) {
        self.run(
            "pg_ctl",
            &["-D", &self.data(), "-m", "immediate", "-w", "stop"],
        );
    }

    /// Stops the cluster and removes its folder once this process ends.
    fn watch(&self) {
        let pg_ctl = self.bin.join("pg_ctl");
        let as_owner = if is_root() {
            "runuser -u postgres -- "
        } else {
            ""
        };
        let script = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 1; done; \
             {as_owner}{pg_ctl} -D {data} -m immediate stop >/dev/null 2>&1; rm -rf {dir}",
            pid = std::process::id(),
            pg_ctl = pg_ctl.display(),
            data = self.data(),
            dir = self.dir.display(),
        );
        // `setsid -f`: the watchman runs on alone, its starter returns.
        Command::new("setsid")
            .args(["-f", "sh", "-c", &script])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("watchman");
    }

    /// The address of database `name`, made where it is missing.
    pub fn database(&self, name: &str) -> String {
        let login = match &self.password {
            Some(p) => format!("postgres:{p}"),
            None => "postgres".to_string(),
        };
        let admin = format!("postgres://{login}@127.0.0.1:{}/postgres", self.port);
        let mut client = postgres::Client::connect(&admin, postgres::NoTls).expect("connect");
        let exists = client
            .query_opt("SELECT 1 FROM pg_database WHERE datname = $1", &[&name])
            .expect("ask");
        if exists.is_none() {
            client
                .batch_execute(&format!("CREATE DATABASE \"{name}\""))
                .expect("create database");
        }
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }
}

/// A loopback port nobody listens on now.
fn free_port() -> u16 {
    let socket = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    socket.local_addr().expect("address").port()
}
