//! The meta word every stored component carries beside its value.

/// A component's meta word: its instance serial (unique within its type),
/// whether it is enabled and whether its behaviour's `start` has run. The
/// one owner of the word's bit layout: everything else reads and sets it
/// through these methods. `repr(transparent)` over a `u32`, so a segment's
/// `Vec<Meta>` is the `Vec<u32>` the hot loops read, one bit test a row.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Meta(u32);

impl Meta {
    /// Bit set while the component is disabled.
    const DISABLED: u32 = 1 << 31;
    /// Bit set once a behaviour's `start` has run.
    const STARTED: u32 = 1 << 30;
    /// The serial part (2^30 instances per type).
    const SERIAL_MASK: u32 = Self::STARTED - 1;

    /// The word of a new component: serial `serial` (wrapped into the
    /// serial bits), enabled, not started.
    #[inline]
    pub const fn fresh(serial: u32) -> Meta {
        Meta(serial & Self::SERIAL_MASK)
    }

    /// The instance serial.
    #[inline]
    pub const fn serial(self) -> u32 {
        self.0 & Self::SERIAL_MASK
    }

    /// Whether the component is enabled (not disabled).
    #[inline]
    pub const fn is_enabled(self) -> bool {
        self.0 & Self::DISABLED == 0
    }

    /// Whether its behaviour's `start` has run.
    #[inline]
    pub const fn is_started(self) -> bool {
        self.0 & Self::STARTED != 0
    }

    /// The same word, enabled or disabled.
    #[inline]
    pub const fn with_enabled(self, enabled: bool) -> Meta {
        if enabled {
            Meta(self.0 & !Self::DISABLED)
        } else {
            Meta(self.0 | Self::DISABLED)
        }
    }

    /// The same word, marked started.
    #[inline]
    pub const fn started(self) -> Meta {
        Meta(self.0 | Self::STARTED)
    }
}

#[cfg(test)]
mod tests {
    use super::Meta;

    #[test]
    fn layout() {
        assert_eq!(size_of::<Meta>(), size_of::<u32>());
        assert_eq!(Meta::DISABLED, 1 << 31);
        assert_eq!(Meta::STARTED, 1 << 30);
        assert_eq!(Meta::SERIAL_MASK, (1 << 30) - 1);
        let fresh = Meta::fresh(7);
        assert_eq!(fresh, Meta(7));
        assert!(fresh.is_enabled() && !fresh.is_started());
        let both = fresh.with_enabled(false).started();
        assert_eq!(both, Meta(7 | 1 << 31 | 1 << 30));
        assert_eq!(both.serial(), 7);
        assert!(!both.is_enabled() && both.is_started());
        assert_eq!(both.with_enabled(true), Meta(7 | 1 << 30));
        assert_eq!(Meta::fresh(1 << 30).serial(), 0);
    }
}
