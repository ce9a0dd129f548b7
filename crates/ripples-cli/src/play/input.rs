//! From keys and the pointer to what the user asked for.
//!
//! Keys become [`Command`]s and pointer motion becomes [`Gesture`]s in pool pixels; the window
//! only forwards winit's events here and hands the results to the session. Keys are matched on
//! the *logical* key (what the layout prints), so `+` is `+` on any keyboard, and toggles ignore
//! auto-repeat while the brush keys repeat. A drag remembers where the pointer last was in the
//! pool and hands over the whole segment to the new position, which the library stamps along a
//! Bresenham line: a fast swipe leaves no gaps however far the pointer jumped between two events.

use ripples::SolverKind;
use winit::keyboard::{Key, NamedKey};

use super::mapping::Viewport;

/// What a key asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// `R`: rain on or off.
    ToggleRain,
    /// `Space`: pause or resume the water.
    TogglePause,
    /// `C`: calm the water.
    Calm,
    /// `O`: remove every wall.
    ClearWalls,
    /// `1`, `2`, `3`, `4`: the classic, wave, spring or dispersive solver.
    Solver(SolverKind),
    /// `+`: stronger stones.
    Stronger,
    /// `-`: weaker stones.
    Weaker,
    /// `]`: wider stones.
    Wider,
    /// `[`: narrower stones.
    Narrower,
    /// `B`: absorbing or reflecting border.
    ToggleBoundary,
    /// `L`: the next look (natural, lit, classic, spring, then natural again).
    NextLook,
    /// `S`: save a screenshot.
    Screenshot,
    /// `H`, `F1`: the help overlay.
    ToggleHelp,
    /// `Esc`, `Q`: quit.
    Quit,
}

impl Command {
    /// The command a pressed key asks for; `repeat` is true for auto-repeated presses, which
    /// only the brush keys (`+ - [ ]`) honour.
    pub fn for_key(key: &Key, repeat: bool) -> Option<Self> {
        let command = match key {
            Key::Named(NamedKey::Space) => Self::TogglePause,
            Key::Named(NamedKey::Escape) => Self::Quit,
            Key::Named(NamedKey::F1) => Self::ToggleHelp,
            Key::Character(text) => match text.as_str() {
                "r" | "R" => Self::ToggleRain,
                " " => Self::TogglePause,
                "c" | "C" => Self::Calm,
                "o" | "O" => Self::ClearWalls,
                "1" => Self::Solver(SolverKind::Classic),
                "2" => Self::Solver(SolverKind::Wave),
                "3" => Self::Solver(SolverKind::Spring),
                "4" => Self::Solver(SolverKind::Dispersive),
                // `=` is `+` without Shift on many layouts.
                "+" | "=" => Self::Stronger,
                "-" | "_" => Self::Weaker,
                "]" => Self::Wider,
                "[" => Self::Narrower,
                "b" | "B" => Self::ToggleBoundary,
                "l" | "L" => Self::NextLook,
                "s" | "S" => Self::Screenshot,
                "h" | "H" | "?" => Self::ToggleHelp,
                "q" | "Q" => Self::Quit,
                _ => return None,
            },
            _ => return None,
        };
        let repeats = matches!(
            command,
            Self::Stronger | Self::Weaker | Self::Wider | Self::Narrower
        );
        (!repeat || repeats).then_some(command)
    }
}

/// What the pointer did to the water, in pool pixels (possibly outside the pool: the library
/// clips).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gesture {
    /// A left click: a stone.
    Stone([i32; 2]),
    /// A left click with Shift: a float (a buoy) put on the water there.
    Float([i32; 2]),
    /// A left drag from one point to the next.
    Swipe([i32; 2], [i32; 2]),
    /// The left button went up, or the window lost it: the drag is over.
    Lift,
    /// A right drag from one point to the next: walls, or with Shift, no walls.
    Walls {
        /// Where the stroke was.
        from: [i32; 2],
        /// Where it is now.
        to: [i32; 2],
        /// Shift was held: erase.
        erase: bool,
    },
}

/// A mouse button the water cares about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Button {
    /// Stones and swipes.
    Left,
    /// Walls.
    Right,
}

/// The pointer: where it is and which drags are under way.
#[derive(Debug, Default, Clone)]
pub struct Pointer {
    /// Window position, once the pointer has entered the window.
    position: Option<(f64, f64)>,
    /// The pool point a left drag was last at.
    swipe: Option<[i32; 2]>,
    /// The pool point a right drag was last at.
    walls: Option<[i32; 2]>,
}

impl Pointer {
    /// A button went down. A left press on the picture drops a stone and starts a swipe (with
    /// Shift, it puts a float there instead, and drags nothing); a right press starts a wall
    /// stroke (erasing with Shift). Presses on the bars around the
    /// picture start the drag without a stone, so a drag that enters the water still counts.
    pub fn pressed(&mut self, button: Button, viewport: &Viewport, shift: bool) -> Option<Gesture> {
        let (x, y) = self.position?;
        let at = viewport.pool_pixel(x, y);
        let on_picture = viewport.contains(x, y);
        match button {
            Button::Left if shift => on_picture.then_some(Gesture::Float(at)),
            Button::Left => {
                self.swipe = Some(at);
                on_picture.then_some(Gesture::Stone(at))
            }
            Button::Right => {
                self.walls = Some(at);
                on_picture.then_some(Gesture::Walls {
                    from: at,
                    to: at,
                    erase: shift,
                })
            }
        }
    }

    /// A button went up: its drag ends (a left one with [`Gesture::Lift`]).
    pub fn released(&mut self, button: Button) -> Option<Gesture> {
        match button {
            Button::Left => self.swipe.take().map(|_| Gesture::Lift),
            Button::Right => {
                self.walls = None;
                None
            }
        }
    }

    /// The pointer moved to window position `(x, y)`: each drag under way continues from where
    /// it was to here (`emit` gets one gesture per drag; none when the pool pixel is the same).
    pub fn moved(
        &mut self,
        x: f64,
        y: f64,
        viewport: &Viewport,
        shift: bool,
        mut emit: impl FnMut(Gesture),
    ) {
        self.position = Some((x, y));
        let at = viewport.pool_pixel(x, y);
        if let Some(swipe) = &mut self.swipe {
            let from = std::mem::replace(swipe, at);
            if from != at {
                emit(Gesture::Swipe(from, at));
            }
        }
        if let Some(walls) = &mut self.walls {
            let from = std::mem::replace(walls, at);
            if from != at {
                emit(Gesture::Walls {
                    from,
                    to: at,
                    erase: shift,
                });
            }
        }
    }

    /// The window lost the pointer's buttons (focus lost): every drag ends, so none sticks
    /// ([`Gesture::Lift`] if a left drag was under way).
    pub fn release_all(&mut self) -> Option<Gesture> {
        self.walls = None;
        self.released(Button::Left)
    }

    /// The pointer left the window: its position is unknown until it comes back (a press
    /// without a position does nothing). Drags continue if the system keeps reporting motion.
    pub fn left(&mut self) {
        self.position = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn character(text: &str) -> Key {
        Key::Character(text.into())
    }

    #[test]
    fn every_documented_key_has_its_command() {
        let cases = [
            (character("r"), Command::ToggleRain),
            (character("R"), Command::ToggleRain),
            (Key::Named(NamedKey::Space), Command::TogglePause),
            (character("c"), Command::Calm),
            (character("o"), Command::ClearWalls),
            (character("1"), Command::Solver(SolverKind::Classic)),
            (character("2"), Command::Solver(SolverKind::Wave)),
            (character("3"), Command::Solver(SolverKind::Spring)),
            (character("4"), Command::Solver(SolverKind::Dispersive)),
            (character("+"), Command::Stronger),
            (character("="), Command::Stronger),
            (character("-"), Command::Weaker),
            (character("]"), Command::Wider),
            (character("["), Command::Narrower),
            (character("b"), Command::ToggleBoundary),
            (character("l"), Command::NextLook),
            (character("s"), Command::Screenshot),
            (character("h"), Command::ToggleHelp),
            (Key::Named(NamedKey::F1), Command::ToggleHelp),
            (Key::Named(NamedKey::Escape), Command::Quit),
            (character("q"), Command::Quit),
        ];
        for (key, command) in cases {
            assert_eq!(Command::for_key(&key, false), Some(command), "{key:?}");
        }
        assert_eq!(Command::for_key(&character("x"), false), None);
        assert_eq!(Command::for_key(&Key::Named(NamedKey::Tab), false), None);
    }

    #[test]
    fn held_keys_repeat_only_the_brush() {
        assert_eq!(
            Command::for_key(&character("+"), true),
            Some(Command::Stronger)
        );
        assert_eq!(
            Command::for_key(&character("]"), true),
            Some(Command::Wider)
        );
        assert_eq!(Command::for_key(&character("r"), true), None);
        assert_eq!(Command::for_key(&Key::Named(NamedKey::Space), true), None);
        assert_eq!(Command::for_key(&Key::Named(NamedKey::Escape), true), None);
    }

    /// Moves the pointer and collects the gestures.
    fn move_to(pointer: &mut Pointer, viewport: &Viewport, x: f64, y: f64) -> Vec<Gesture> {
        let mut gestures = Vec::new();
        pointer.moved(x, y, viewport, false, |g| gestures.push(g));
        gestures
    }

    #[test]
    fn a_click_is_a_stone_and_a_drag_a_connected_swipe() {
        // A 200x100 pool shown twice as large.
        let viewport = Viewport::fit((400, 200), (200, 100));
        let mut pointer = Pointer::default();
        // No position yet: nothing.
        assert_eq!(pointer.pressed(Button::Left, &viewport, false), None);
        assert!(move_to(&mut pointer, &viewport, 100.0, 100.0).is_empty());
        assert_eq!(
            pointer.pressed(Button::Left, &viewport, false),
            Some(Gesture::Stone([50, 50]))
        );
        // Each move continues from the last point, so the segments join up.
        assert_eq!(
            move_to(&mut pointer, &viewport, 300.0, 20.0),
            vec![Gesture::Swipe([50, 50], [150, 10])]
        );
        assert_eq!(
            move_to(&mut pointer, &viewport, 390.0, 190.0),
            vec![Gesture::Swipe([150, 10], [195, 95])]
        );
        // A move within the same pool pixel adds nothing.
        assert!(move_to(&mut pointer, &viewport, 390.5, 190.5).is_empty());
        // Letting go ends the drag (the finger leaves the water), once.
        assert_eq!(pointer.released(Button::Left), Some(Gesture::Lift));
        assert_eq!(pointer.released(Button::Left), None);
        assert!(move_to(&mut pointer, &viewport, 10.0, 10.0).is_empty());
    }

    #[test]
    fn a_shift_click_puts_a_float_and_drags_nothing() {
        let viewport = Viewport::fit((400, 200), (200, 100));
        let mut pointer = Pointer::default();
        move_to(&mut pointer, &viewport, 100.0, 60.0);
        assert_eq!(
            pointer.pressed(Button::Left, &viewport, true),
            Some(Gesture::Float([50, 30]))
        );
        // No swipe follows it, and letting go lifts no finger.
        assert!(move_to(&mut pointer, &viewport, 300.0, 20.0).is_empty());
        assert_eq!(pointer.released(Button::Left), None);
        // Without Shift the same click is a stone; on the bars, Shift or not, nothing.
        assert_eq!(
            pointer.pressed(Button::Left, &viewport, false),
            Some(Gesture::Stone([150, 10]))
        );
        let bars = Viewport::fit((300, 100), (100, 100));
        let mut pointer = Pointer::default();
        move_to(&mut pointer, &bars, 50.0, 50.0);
        assert_eq!(pointer.pressed(Button::Left, &bars, true), None);
    }

    #[test]
    fn right_drags_paint_or_erase_walls_and_bars_drop_no_stone() {
        // A 100x100 pool in a 300x100 window: bars 100 pixels wide left and right.
        let viewport = Viewport::fit((300, 100), (100, 100));
        let mut pointer = Pointer::default();
        move_to(&mut pointer, &viewport, 50.0, 50.0);
        assert_eq!(pointer.pressed(Button::Left, &viewport, false), None);
        // The drag started in the bar still swipes into the water.
        assert_eq!(
            move_to(&mut pointer, &viewport, 150.0, 50.0),
            vec![Gesture::Swipe([-50, 50], [50, 50])]
        );
        assert_eq!(pointer.released(Button::Left), Some(Gesture::Lift));
        assert_eq!(
            pointer.pressed(Button::Right, &viewport, true),
            Some(Gesture::Walls {
                from: [50, 50],
                to: [50, 50],
                erase: true
            })
        );
        let mut gestures = Vec::new();
        pointer.moved(160.0, 60.0, &viewport, false, |g| gestures.push(g));
        assert_eq!(
            gestures,
            vec![Gesture::Walls {
                from: [50, 50],
                to: [60, 60],
                erase: false
            }]
        );
        assert_eq!(pointer.release_all(), None, "no left drag under way");
        assert!(move_to(&mut pointer, &viewport, 170.0, 70.0).is_empty());
    }
}
