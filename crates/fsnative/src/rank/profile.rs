//! The frecency formula and its two profiles.
//!
//! The score of a file is the sum, over its recorded accesses, of `exp(-λ·days_ago)` with
//! `λ = ln 2 / half_life`; accesses older than the profile's window count for nothing. Above
//! 10 the sum grows as `10 + sqrt(f - 10)`, so a file opened a hundred times does not drown
//! everything else. Normal: 10-day half-life, kept 30 days; AI: 3 days, kept 7.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Milliseconds in a day.
const DAY_MS: f64 = 86_400_000.0;

/// How fast accesses fade and how long they are kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FrecencyProfile {
    /// For people: half-life 10 days, accesses kept 30 days.
    #[default]
    Normal,
    /// For agents, whose interest moves faster: half-life 3 days, accesses kept 7 days.
    Ai,
}

impl FrecencyProfile {
    /// The profile's name: `"normal"` or `"ai"`.
    pub fn name(self) -> &'static str {
        match self {
            FrecencyProfile::Normal => "normal",
            FrecencyProfile::Ai => "ai",
        }
    }

    /// The profile named `name` (`"normal"` or `"ai"`).
    pub fn from_name(name: &str) -> Option<FrecencyProfile> {
        match name {
            "normal" => Some(FrecencyProfile::Normal),
            "ai" => Some(FrecencyProfile::Ai),
            _ => None,
        }
    }

    /// After how long an access counts half.
    pub fn half_life(self) -> Duration {
        days(match self {
            FrecencyProfile::Normal => 10,
            FrecencyProfile::Ai => 3,
        })
    }

    /// How long an access counts at all; older ones are purged.
    pub fn window(self) -> Duration {
        days(match self {
            FrecencyProfile::Normal => 30,
            FrecencyProfile::Ai => 7,
        })
    }

    /// The score of `accesses` (milliseconds since the Unix epoch, any order) as of `now`:
    /// accesses older than the window are left out; one after `now` (another process's clock
    /// may run ahead) counts as new.
    ///
    /// ```
    /// use fsnative::FrecencyProfile;
    /// let day = 86_400_000;
    /// let now = 100 * day;
    /// // One access now counts 1; one a half-life ago counts 0.5.
    /// assert_eq!(FrecencyProfile::Normal.score(&[now, now - 10 * day], now), 1.5);
    /// // Past 10 the returns diminish: 14 accesses now score 10 + sqrt(4).
    /// assert_eq!(FrecencyProfile::Ai.score(&[now; 14], now), 12.0);
    /// // Older than the window: nothing.
    /// assert_eq!(FrecencyProfile::Ai.score(&[now - 8 * day], now), 0.0);
    /// ```
    pub fn score(self, accesses: &[u64], now: u64) -> f64 {
        let lambda = std::f64::consts::LN_2 / (self.half_life().as_millis() as f64 / DAY_MS);
        let sum: f64 = accesses
            .iter()
            .filter(|&&at| self.counts(at, now))
            .map(|&at| (-lambda * now.saturating_sub(at) as f64 / DAY_MS).exp())
            .sum();
        if sum > 10.0 {
            10.0 + (sum - 10.0).sqrt()
        } else {
            sum
        }
    }

    /// Whether an access at `at` counts as of `now`: it is not older than the window.
    pub(super) fn counts(self, at: u64, now: u64) -> bool {
        now.saturating_sub(at) <= self.window().as_millis() as u64
    }
}

fn days(count: u64) -> Duration {
    Duration::from_secs(count * 86_400)
}
