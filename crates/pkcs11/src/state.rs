//! The module's state behind one lock: whether C_Initialize ran, the token,
//! the sessions and the objects. With `SPHINCS_PKCS11_DIR` set the token
//! and its token objects are written to that directory on every change and
//! read back at C_Initialize (`store.rs`); without it they live in memory
//! for the life of the process (C_Finalize ends sessions and session
//! objects only).

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use cryptoki_sys::*;

use zeroize::Zeroizing;

use crate::attributes::Template;
use crate::object::Object;
use crate::session::Session;
use crate::store::Store;
use crate::token::{Login, Token};

/// The one slot's ID.
pub(crate) const SLOT_ID: CK_SLOT_ID = 1;

pub(crate) struct Global {
    pub(crate) initialized: bool,
    pub(crate) token: Token,
    pub(crate) sessions: BTreeMap<CK_SESSION_HANDLE, Session>,
    pub(crate) objects: BTreeMap<CK_OBJECT_HANDLE, Object>,
    /// Session and object handles come from one counter and are never reused.
    next_handle: CK_ULONG,
    /// Where the token is kept, if anywhere.
    store: Option<Store>,
    /// The user PIN while the user is logged in: new private token keys
    /// are encrypted under it.
    user_pin: Option<Zeroizing<Vec<u8>>>,
}

static GLOBAL: Mutex<Global> = Mutex::new(Global {
    initialized: false,
    token: Token::new(),
    sessions: BTreeMap::new(),
    objects: BTreeMap::new(),
    next_handle: 1,
    store: None,
    user_pin: None,
});

/// The state, locked. A panic caught at the FFI boundary may have poisoned
/// the lock; the state is still consistent (every change is made after the
/// checks), so the lock is taken anyway.
pub(crate) fn lock() -> MutexGuard<'static, Global> {
    GLOBAL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The state, locked, if C_Initialize ran (else CKR_CRYPTOKI_NOT_INITIALIZED).
pub(crate) fn ready() -> Result<MutexGuard<'static, Global>, CK_RV> {
    let g = lock();
    if g.initialized {
        Ok(g)
    } else {
        Err(CKR_CRYPTOKI_NOT_INITIALIZED)
    }
}

/// CKR_SLOT_ID_INVALID for any slot but ours.
pub(crate) fn check_slot(slot: CK_SLOT_ID) -> Result<(), CK_RV> {
    if slot == SLOT_ID {
        Ok(())
    } else {
        Err(CKR_SLOT_ID_INVALID)
    }
}

impl Global {
    pub(crate) fn initialize(&mut self) -> Result<(), CK_RV> {
        if self.initialized {
            return Err(CKR_CRYPTOKI_ALREADY_INITIALIZED);
        }
        self.store = Store::from_env().map_err(|_| CKR_DEVICE_ERROR)?;
        self.load()?;
        self.initialized = true;
        Ok(())
    }

    /// Reads the token and its objects from the store, if there is one
    /// (the directory is the truth: what memory held is replaced). A
    /// damaged object file is skipped; a damaged token file is
    /// CKR_DEVICE_ERROR.
    fn load(&mut self) -> Result<(), CK_RV> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let token = store.load_token().map_err(|_| CKR_DEVICE_ERROR)?;
        let objects = store.load_objects().map_err(|_| CKR_DEVICE_ERROR)?;
        let staged = objects
            .iter()
            .map(|(id, _)| store.load_staged(*id))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| CKR_DEVICE_ERROR)?;
        self.token = match token {
            Some(b) => Token::from_bytes(&b).ok_or(CKR_DEVICE_ERROR)?,
            None => Token::new(),
        };
        self.objects.retain(|_, o| o.owner.is_some());
        for ((id, bytes), staged) in objects.into_iter().zip(staged) {
            if let Some(mut o) = Object::from_record(&bytes, id) {
                if let Some(s) = staged.and_then(|b| Object::from_record(&b, id)) {
                    o.add_staged(s);
                }
                let h = self.new_handle();
                self.objects.insert(h, o);
            }
        }
        Ok(())
    }

    /// Writes the token file (PINs, counters), if there is a store.
    fn save_token(&self) -> Result<(), CK_RV> {
        match &self.store {
            Some(s) => s
                .save_token(&self.token.to_bytes())
                .map_err(|_| CKR_DEVICE_ERROR),
            None => Ok(()),
        }
    }

    /// Writes a token object's file, if there is a store.
    fn save_object(&self, o: &Object, pin: Option<&[u8]>) -> Result<(), CK_RV> {
        match (&self.store, o.store_id) {
            (Some(s), Some(id)) => s
                .save_object(id, &o.to_record(pin)?)
                .map_err(|_| CKR_DEVICE_ERROR),
            _ => Ok(()),
        }
    }

    /// Ends every session (and its objects), logs out, and marks the
    /// module uninitialised. Operations running outside the lock keep
    /// their keys and finish; their results find no session.
    pub(crate) fn finalize(&mut self) {
        self.close_all_sessions();
        self.initialized = false;
    }

    /// Logs out (the token's login and the user PIN held for storage).
    fn log_out(&mut self) {
        self.token.login = Login::Public;
        self.user_pin = None;
    }

    fn new_handle(&mut self) -> CK_ULONG {
        let h = self.next_handle;
        self.next_handle += 1;
        h
    }

    pub(crate) fn session(&mut self, h: CK_SESSION_HANDLE) -> Result<&mut Session, CK_RV> {
        self.sessions.get_mut(&h).ok_or(CKR_SESSION_HANDLE_INVALID)
    }

    pub(crate) fn open_session(&mut self, flags: CK_FLAGS) -> Result<CK_SESSION_HANDLE, CK_RV> {
        if flags & CKF_SERIAL_SESSION == 0 {
            return Err(CKR_SESSION_PARALLEL_NOT_SUPPORTED);
        }
        let rw = flags & CKF_RW_SESSION != 0;
        if !rw && self.token.login == Login::So {
            return Err(CKR_SESSION_READ_WRITE_SO_EXISTS);
        }
        let h = self.new_handle();
        self.sessions.insert(h, Session::new(rw));
        Ok(h)
    }

    pub(crate) fn close_session(&mut self, h: CK_SESSION_HANDLE) -> Result<(), CK_RV> {
        self.sessions.remove(&h).ok_or(CKR_SESSION_HANDLE_INVALID)?;
        self.objects.retain(|_, o| o.owner != Some(h));
        if self.sessions.is_empty() {
            // Closing an application's last session logs it out.
            self.log_out();
        }
        Ok(())
    }

    pub(crate) fn close_all_sessions(&mut self) {
        self.sessions.clear();
        self.objects.retain(|_, o| o.owner.is_none());
        self.log_out();
    }

    /// CK_SESSION_INFO's state of a session.
    pub(crate) fn state(&self, s: &Session) -> CK_STATE {
        match (s.rw, self.token.login) {
            (false, Login::Public) => CKS_RO_PUBLIC_SESSION,
            (false, _) => CKS_RO_USER_FUNCTIONS,
            (true, Login::Public) => CKS_RW_PUBLIC_SESSION,
            (true, Login::User) => CKS_RW_USER_FUNCTIONS,
            (true, Login::So) => CKS_RW_SO_FUNCTIONS,
        }
    }

    /// C_InitToken: sets the SO PIN and label, destroys every token object
    /// and the user PIN. An initialised token wants its SO PIN.
    pub(crate) fn init_token(&mut self, so_pin: &[u8], label: &[u8; 32]) -> Result<(), CK_RV> {
        if !self.sessions.is_empty() {
            return Err(CKR_SESSION_EXISTS);
        }
        if let Some(pin) = &mut self.token.so_pin {
            let checked = pin.check(so_pin);
            self.save_token()?;
            checked?;
        }
        let pin = crate::token::Pin::new(so_pin)?;
        if let Some(s) = &self.store {
            s.clear_objects().map_err(|_| CKR_DEVICE_ERROR)?;
        }
        self.token.so_pin = Some(pin);
        self.token.user_pin = None;
        self.token.label = *label;
        self.objects.clear();
        self.save_token()
    }

    /// C_InitPIN: the SO, in a read/write session, sets the user PIN.
    pub(crate) fn init_pin(&mut self, h: CK_SESSION_HANDLE, pin: &[u8]) -> Result<(), CK_RV> {
        let rw = self.session(h)?.rw;
        if self.token.login != Login::So || !rw {
            return Err(CKR_USER_NOT_LOGGED_IN);
        }
        // Private token keys stored under the old user PIN cannot be
        // decrypted under the new one; they stay, locked and unusable. So
        // do the staged copies of a C_SetPIN that did not finish (under a
        // PIN never set): removed first, so that the SO cannot bring a key
        // back by setting exactly that PIN.
        for o in self.objects.values_mut() {
            o.drop_staged();
            if let (Some(s), Some(id)) = (&self.store, o.store_id) {
                s.remove_staged(id).map_err(|_| CKR_DEVICE_ERROR)?;
            }
        }
        self.token.user_pin = Some(crate::token::Pin::new(pin)?);
        self.save_token()
    }

    /// C_SetPIN: the SO's PIN when the SO is logged in, else the user's.
    pub(crate) fn set_pin(
        &mut self,
        h: CK_SESSION_HANDLE,
        old: &[u8],
        new: &[u8],
    ) -> Result<(), CK_RV> {
        if !self.session(h)?.rw {
            return Err(CKR_SESSION_READ_ONLY);
        }
        crate::token::check_len(new)?;
        let so = self.token.login == Login::So;
        let slot = if so {
            &mut self.token.so_pin
        } else {
            &mut self.token.user_pin
        };
        let pin = slot.as_mut().ok_or(CKR_USER_PIN_NOT_INITIALIZED)?;
        let checked = pin.check(old);
        self.save_token()?;
        checked?;
        // The keys under the new PIN in staged files; `token.bin` with the
        // new PIN (the commit); the staged files over the object files.
        let staged = if so {
            Vec::new()
        } else {
            self.stage(old, new)?
        };
        let slot = if so {
            &mut self.token.so_pin
        } else {
            &mut self.token.user_pin
        };
        let previous = slot.replace(crate::token::Pin::new(new)?);
        if let Err(rv) = self.save_token() {
            if so {
                self.token.so_pin = previous;
            } else {
                self.token.user_pin = previous;
            }
            return Err(rv);
        }
        if let Some(s) = &self.store {
            for id in staged {
                // Done if this fails: the staged file stands in (`load`).
                let _ = s.commit_staged(id);
            }
        }
        if !so && self.user_pin.is_some() {
            self.user_pin = Some(Zeroizing::new(new.to_vec()));
        }
        Ok(())
    }

    /// Writes every stored private key re-encrypted under the new user PIN
    /// as its staged file (keys not yet decrypted are decrypted with the
    /// old PIN first); their ids.
    fn stage(&mut self, old: &[u8], new: &[u8]) -> Result<Vec<u64>, CK_RV> {
        let mut ids = Vec::new();
        if self.store.is_none() {
            return Ok(ids);
        }
        let handles: Vec<_> = self
            .objects
            .iter()
            .filter(|(_, o)| o.store_id.is_some() && o.is_private_key())
            .map(|(h, _)| *h)
            .collect();
        for h in handles {
            let Some(o) = self.objects.get_mut(&h) else {
                continue;
            };
            o.unlock(old);
            let o = o.clone();
            if let (Some(s), Some(id)) = (&self.store, o.store_id) {
                s.save_staged(id, &o.to_record(Some(new))?)
                    .map_err(|_| CKR_DEVICE_ERROR)?;
                ids.push(id);
            }
        }
        Ok(ids)
    }

    pub(crate) fn login(
        &mut self,
        h: CK_SESSION_HANDLE,
        user: CK_USER_TYPE,
        pin: &[u8],
    ) -> Result<(), CK_RV> {
        self.session(h)?;
        let who = match user {
            CKU_SO => Login::So,
            CKU_USER => Login::User,
            // No key here needs CKA_ALWAYS_AUTHENTICATE re-login.
            CKU_CONTEXT_SPECIFIC => return Err(CKR_OPERATION_NOT_INITIALIZED),
            _ => return Err(CKR_USER_TYPE_INVALID),
        };
        match self.token.login {
            Login::Public => {}
            l if l == who => return Err(CKR_USER_ALREADY_LOGGED_IN),
            _ => return Err(CKR_USER_ANOTHER_ALREADY_LOGGED_IN),
        }
        if who == Login::So && self.sessions.values().any(|s| !s.rw) {
            return Err(CKR_SESSION_READ_ONLY_EXISTS);
        }
        let slot = match who {
            Login::So => self
                .token
                .so_pin
                .as_mut()
                .ok_or(CKR_USER_PIN_NOT_INITIALIZED)?,
            _ => self
                .token
                .user_pin
                .as_mut()
                .ok_or(CKR_USER_PIN_NOT_INITIALIZED)?,
        };
        let checked = slot.check(pin);
        self.save_token()?;
        checked?;
        self.token.login = who;
        if who == Login::User {
            // Each stored private key is decrypted when it is first used
            // (`unlock_for_use`), not here: one scrypt a key, paid only for
            // the keys a session signs with.
            self.user_pin = Some(Zeroizing::new(pin.to_vec()));
        }
        Ok(())
    }

    pub(crate) fn logout(&mut self, h: CK_SESSION_HANDLE) -> Result<(), CK_RV> {
        self.session(h)?;
        if self.token.login == Login::Public {
            return Err(CKR_USER_NOT_LOGGED_IN);
        }
        self.log_out();
        // Private objects are out of reach again: end what uses them.
        for s in self.sessions.values_mut() {
            s.sign = None;
            s.find = None;
        }
        Ok(())
    }

    /// Whether the caller may see `o` now: private objects need the user.
    fn visible(&self, o: &Object) -> bool {
        !o.is_private() || self.token.login == Login::User
    }

    /// An object the caller may see (else CKR_OBJECT_HANDLE_INVALID).
    /// Decrypts object `h`, a stored private key, with the logged-in
    /// user's PIN if it is still locked (a key the PIN does not decrypt
    /// stays locked, and unusable).
    pub(crate) fn unlock_for_use(&mut self, h: CK_OBJECT_HANDLE) {
        let Some(pin) = self.user_pin.clone() else {
            return;
        };
        if let Some(o) = self.objects.get_mut(&h) {
            // Decrypted from its staged file: a C_SetPIN did not finish;
            // the staged file takes the object file's place.
            if o.unlock(&pin) {
                if let (Some(s), Some(id)) = (&self.store, o.store_id) {
                    let _ = s.commit_staged(id);
                }
            }
        }
    }

    pub(crate) fn object(&self, h: CK_OBJECT_HANDLE) -> Result<&Object, CK_RV> {
        match self.objects.get(&h) {
            Some(o) if self.visible(o) => Ok(o),
            _ => Err(CKR_OBJECT_HANDLE_INVALID),
        }
    }

    /// May session `h` create or destroy `o`? Token objects need a
    /// read/write session, private ones the user.
    fn may_write(&mut self, h: CK_SESSION_HANDLE, o: &Object) -> Result<(), CK_RV> {
        self.may_write_flags(h, o.is_token(), o.is_private())
    }

    /// [`Self::may_write`] for an object of CKA_TOKEN `token` and
    /// CKA_PRIVATE `private`.
    pub(crate) fn may_write_flags(
        &mut self,
        h: CK_SESSION_HANDLE,
        token: bool,
        private: bool,
    ) -> Result<(), CK_RV> {
        let rw = self.session(h)?.rw;
        if token && !rw {
            return Err(CKR_SESSION_READ_ONLY);
        }
        if private && self.token.login != Login::User {
            return Err(CKR_USER_NOT_LOGGED_IN);
        }
        Ok(())
    }

    /// Stores `o` for session `h` after the write checks.
    pub(crate) fn add_object(
        &mut self,
        h: CK_SESSION_HANDLE,
        mut o: Object,
    ) -> Result<CK_OBJECT_HANDLE, CK_RV> {
        self.may_write(h, &o)?;
        if !o.is_token() {
            o.owner = Some(h);
        } else if self.store.is_some() {
            let mut id = [0u8; 8];
            getrandom::fill(&mut id).map_err(|_| CKR_DEVICE_ERROR)?;
            o.store_id = Some(u64::from_le_bytes(id));
            let pin = self.user_pin.clone();
            self.save_object(&o, pin.as_deref().map(|p| p.as_slice()))?;
        }
        let handle = self.new_handle();
        self.objects.insert(handle, o);
        Ok(handle)
    }

    /// Takes back an object [`Self::add_object`] stored, and its file.
    pub(crate) fn discard(&mut self, object: CK_OBJECT_HANDLE) {
        if let Some(o) = self.objects.remove(&object) {
            if let (Some(s), Some(id)) = (&self.store, o.store_id) {
                let _ = s.remove_object(id);
            }
        }
    }

    /// Checks a key pair's two objects can be stored, before any is.
    pub(crate) fn check_pair(
        &mut self,
        h: CK_SESSION_HANDLE,
        public: &Object,
        private: &Object,
    ) -> Result<(), CK_RV> {
        self.may_write(h, public)?;
        self.may_write(h, private)
    }

    pub(crate) fn destroy_object(
        &mut self,
        h: CK_SESSION_HANDLE,
        object: CK_OBJECT_HANDLE,
    ) -> Result<(), CK_RV> {
        let o = self.object(object)?.clone();
        self.may_write(h, &o)?;
        if !o.is_destroyable() {
            return Err(CKR_ACTION_PROHIBITED);
        }
        if let (Some(s), Some(id)) = (&self.store, o.store_id) {
            s.remove_object(id).map_err(|_| CKR_DEVICE_ERROR)?;
        }
        self.objects.remove(&object);
        Ok(())
    }

    pub(crate) fn find_init(&mut self, h: CK_SESSION_HANDLE, t: &Template) -> Result<(), CK_RV> {
        if self.session(h)?.find.is_some() {
            return Err(CKR_OPERATION_ACTIVE);
        }
        let found: Vec<_> = self
            .objects
            .iter()
            .filter(|(_, o)| self.visible(o) && o.matches(t))
            .map(|(h, _)| *h)
            .collect();
        self.session(h)?.find = Some(found);
        Ok(())
    }
}
