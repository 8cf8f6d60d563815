//! Tether Online as the game runs it: the profile, one client, the run queue, and the run
//! session of the attempt in progress. The screens tell it when an attempt starts and when a
//! run finishes, and call `update` once a frame; it never blocks and, with online off, makes
//! no request at all (it does not even make a client).

use tether_online_proto::wire::SessionAnswer;
use tether_online_proto::Identity;

use super::client::{Call, OnlineClient};
use super::profile::OnlineProfile;
use super::queue::{RunQueue, RunState};
use crate::platform::store::Store;
use crate::sim::Replay;

/// Why online cannot be turned on in a build without it (feature `online` off).
const NOT_BUILT: &str = "this build has no Tether Online";

/// The registration of the profile's name (or the look-up of the name an imported key has),
/// while it is in flight or after it failed.
enum Registration {
    None,
    InFlight(Call<tether_online_proto::wire::PlayerAnswer>),
    /// `GET /api/v1/players/{key}`: the name of a key imported or turned on again.
    LookUp(Call<tether_online_proto::wire::PlayerAnswer>),
    /// Why the server would not take the name (the settings ask for another).
    Refused(String),
}

pub struct OnlineService {
    pub profile: OnlineProfile,
    store: Store,
    client: Option<OnlineClient>,
    pub queue: RunQueue,
    /// The run session opened for the attempt in progress (asked for as it started).
    session_call: Option<Call<SessionAnswer>>,
    session: Option<String>,
    registration: Registration,
    /// The queue's ticket of the last finished run: what the complete screen reports.
    pub last_ticket: Option<u64>,
}

impl OnlineService {
    /// The profile and queue kept in `store`; a problem reading the profile is returned for
    /// a notice.
    pub fn load(store: Store, server_override: Option<String>) -> (OnlineService, Option<String>) {
        let (mut profile, problem) = if super::BUILT {
            OnlineProfile::load(&store)
        } else {
            (OnlineProfile::default(), None)
        };
        if let Some(server) = server_override {
            profile.server = server;
        }
        let service = OnlineService {
            queue: RunQueue::load(store.clone()),
            profile,
            store,
            client: None,
            session_call: None,
            session: None,
            registration: Registration::None,
            last_ticket: None,
        };
        (service, problem)
    }

    /// Online, with a key and a registered name: runs are sent.
    pub fn is_active(&self) -> bool {
        super::BUILT
            && self.profile.enabled
            && self.profile.name.is_some()
            && self.profile.identity().is_some()
    }

    fn client(&mut self) -> &mut OnlineClient {
        let server = self.profile.server_url();
        if self.client.as_ref().is_none_or(|c| c.server() != server) {
            self.client = Some(OnlineClient::new(&server));
        }
        self.client.as_mut().expect("made above")
    }

    /// Turns online on under `name`: makes the key if there is none and registers the name
    /// (`registration_problem` says if the server refused it).
    pub fn go_online(&mut self, name: &str) -> Result<(), String> {
        if !super::BUILT {
            return Err(NOT_BUILT.into());
        }
        super::profile::check_name(name)?;
        self.registration = Registration::None;
        let identity = self.profile.identity_or_new()?;
        self.profile.enabled = true;
        self.save_profile()?;
        if self.profile.name.as_deref() == Some(name) {
            return Ok(());
        }
        let call = self.client().register(&identity, name);
        self.registration = Registration::InFlight(call);
        Ok(())
    }

    /// Online on: with a key but no name (an imported key), the server is asked for the name;
    /// without a key nothing is sent until a name is chosen (`go_online`).
    pub fn turn_on(&mut self) -> Result<(), String> {
        if !super::BUILT {
            return Err(NOT_BUILT.into());
        }
        self.profile.enabled = true;
        self.save_profile()?;
        self.look_up_name();
        Ok(())
    }

    /// Replaces the key by the recovery code's (the name is forgotten) and, online, asks the
    /// server for the name it has for that key.
    pub fn import_recovery_code(&mut self, code: &str) -> Result<(), String> {
        if !super::BUILT {
            return Err(NOT_BUILT.into());
        }
        self.profile
            .import_recovery_code(code)
            .map_err(|err| err.to_string())?;
        self.save_profile()?;
        self.look_up_name();
        Ok(())
    }

    fn look_up_name(&mut self) {
        self.registration = Registration::None;
        if !super::BUILT {
            return;
        }
        let key = match self.profile.identity() {
            Some(identity) if self.profile.enabled && self.profile.name.is_none() => {
                identity.public_key_hex()
            }
            _ => return,
        };
        let call = self.client().player(&key);
        self.registration = Registration::LookUp(call);
    }

    /// The server's address from now on (empty: the default).
    pub fn set_server(&mut self, server: &str) -> Result<(), String> {
        self.profile.server = server.to_owned();
        self.save_profile()
    }

    /// Whether the name is being registered or looked up.
    pub fn name_pending(&self) -> bool {
        matches!(
            self.registration,
            Registration::InFlight(_) | Registration::LookUp(_)
        )
    }

    /// The client, only while online is on (off: no request can be made).
    pub fn client_if_on(&mut self) -> Option<&mut OnlineClient> {
        if !super::BUILT || !self.profile.enabled {
            return None;
        }
        Some(self.client())
    }

    /// Online off: no request from now on.
    pub fn go_offline(&mut self) -> Result<(), String> {
        self.profile.enabled = false;
        self.client = None;
        self.session_call = None;
        self.registration = Registration::None;
        self.save_profile()
    }

    pub fn registration_problem(&self) -> Option<&str> {
        match &self.registration {
            Registration::Refused(why) => Some(why),
            _ => None,
        }
    }

    fn save_profile(&self) -> Result<(), String> {
        self.profile
            .save(&self.store)
            .map_err(|err| format!("online settings not saved: {err}"))
    }

    /// An attempt at the level with this hash starts: ask for its run session.
    pub fn attempt_started(&mut self, level_hash: &str) {
        self.session = None;
        self.session_call = None;
        if !self.is_active() {
            return;
        }
        let Some(identity) = self.profile.identity() else {
            return;
        };
        self.session_call = Some(self.client().open_session(&identity, level_hash));
    }

    /// A run reached the goal: queue it (with the attempt's session, if it came).
    pub fn run_finished(&mut self, level_file: &str, level_hash: &str, ticks: u64, run: &Replay) {
        self.last_ticket = None;
        if !self.is_active() {
            return;
        }
        let Some(identity) = self.profile.identity() else {
            return;
        };
        // A session still on its way is lost with the attempt: the run is honestly not eligible.
        self.session_call = None;
        let session = self.session.take();
        let replay = run.without_unread_aims().to_ron();
        let ticket = self
            .queue
            .push(&identity, level_file, level_hash, session, ticks, replay);
        self.last_ticket = Some(ticket);
    }

    /// Where the last finished run stands, for the complete screen.
    pub fn last_run_line(&self) -> Option<String> {
        // A build without online never queues a run: `BUILT` leaves the describing out.
        if !super::BUILT {
            return None;
        }
        let run = self.queue.run(self.last_ticket?)?;
        Some(format!("online: {}", run.state.describe(run.attempts)))
    }

    /// One line on where online stands (the registration, then the last run), for the log.
    pub fn status_line(&self) -> Option<String> {
        if !super::BUILT {
            return None;
        }
        match &self.registration {
            Registration::Refused(why) => return Some(format!("online: name refused: {why}")),
            Registration::InFlight(_) | Registration::LookUp(_) => return None,
            Registration::None => {}
        }
        self.last_run_line().or_else(|| {
            self.profile
                .name
                .as_ref()
                .filter(|_| self.profile.enabled)
                .map(|name| format!("online: as {}", crate::sim::limits::printable(name)))
        })
    }

    /// Whether a registration, a run session or the last run is still on its way.
    pub fn is_settling(&self) -> bool {
        super::BUILT
            && self.profile.enabled
            && (self.name_pending()
                || self.session_call.is_some()
                || self
                    .last_run_state()
                    .is_some_and(|state| !state.is_settled()))
    }

    /// The last finished run's state.
    pub fn last_run_state(&self) -> Option<&RunState> {
        Some(&self.queue.run(self.last_ticket?)?.state)
    }

    /// Moves every request along; `now_s` is any steadily increasing clock in seconds.
    pub fn update(&mut self, now_s: f64) {
        if !super::BUILT || !self.profile.enabled {
            return;
        }
        self.poll_registration();
        if let Some(mut call) = self.session_call.take() {
            match self.client().poll(&mut call) {
                None => self.session_call = Some(call),
                Some(Ok(answer)) => self.session = Some(answer.session),
                Some(Err(_)) => self.session = None,
            }
        }
        let Some(identity) = self.profile.identity().filter(|_| self.is_active()) else {
            return;
        };
        let mut queue = std::mem::replace(&mut self.queue, RunQueue::load(Store::memory()));
        queue.update(self.client(), &identity, now_s);
        self.queue = queue;
    }

    fn poll_registration(&mut self) {
        let (mut call, looking_up) =
            match std::mem::replace(&mut self.registration, Registration::None) {
                Registration::InFlight(call) => (call, false),
                Registration::LookUp(call) => (call, true),
                other => {
                    self.registration = other;
                    return;
                }
            };
        match self.client().poll(&mut call) {
            None if looking_up => self.registration = Registration::LookUp(call),
            None => self.registration = Registration::InFlight(call),
            Some(Ok(player)) => {
                self.profile.name = Some(player.name);
                if let Err(problem) = self.save_profile() {
                    self.registration = Registration::Refused(problem);
                }
            }
            // A key the server does not know yet: the player chooses a name.
            Some(Err(err)) if looking_up && err.code() == Some("not_found") => {}
            Some(Err(err)) => self.registration = Registration::Refused(err.to_string()),
        }
    }

    /// The player's key, if any (for boards: "your rank").
    pub fn identity(&self) -> Option<Identity> {
        self.profile.identity()
    }

    /// The public key of a player who has registered a name: whose rank a board shows and
    /// whose run "the run just ahead" is ahead of. `None` before a name is registered.
    pub fn named_player_key(&self) -> Option<String> {
        self.profile.name.as_ref()?;
        Some(self.identity()?.public_key_hex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn online_off_makes_no_client_so_no_request() {
        // Port 9 (discard): nothing should ever try it while online is off.
        let server = Some("http://127.0.0.1:9".to_owned());
        let (mut online, _) = OnlineService::load(Store::memory(), server);
        online.profile.identity_or_new().unwrap();
        online.profile.name = Some("Ada".into());
        online.attempt_started("ab");
        online.run_finished("01.ron", "ab", 177, &Replay::new("01.ron"));
        online.update(1.0);
        let code = tether_online_proto::recovery::encode(&[3u8; 32]);
        online.import_recovery_code(&code).unwrap();
        assert!(online.client.is_none() && online.client_if_on().is_none());
        assert!(!online.name_pending() && online.last_ticket.is_none());
        // Turned on with a key and no name, the key's name is asked for: a client exists.
        online.turn_on().unwrap();
        assert!(online.name_pending() && online.client.is_some());
        online.go_offline().unwrap();
        assert!(online.client_if_on().is_none() && !online.name_pending());
    }
}
