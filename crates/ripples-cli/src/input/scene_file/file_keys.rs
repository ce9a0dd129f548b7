//! The keys of a scene file that name files, read beside the core's [`Scene`] in one pass.
//!
//! The core's scene holds no file names (the core knows nothing of files), yet a scene file
//! writes its picture, walls, mask, heights, sky, spring maps and the floats' pictures among the
//! scene's own keys. Reading the TOML twice, or through `#[serde(flatten)]`, would lose what
//! makes the errors useful: serde buffers a flattened struct's values, so `toml` no longer knows
//! their lines, and `deny_unknown_fields` does not work with it. So this module wraps `toml`'s
//! deserializer instead: the core's `Deserialize` reads the scene through it, and the wrapper
//! takes the file keys out of the top-level table and out of each `[[float]]` as they go by.
//! Every other key and value goes to the core untouched, in the order `toml` reads them, so
//! errors carry the same lines and the same words as when the core read the keys itself; an
//! unknown key is refused here, naming every key of its table in the format's order.

use std::fmt;
use std::sync::OnceLock;

use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess,
    Visitor,
};

use ripples::Scene;

/// The files a scene file names, as written there (relative to the scene file's directory).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SceneFiles {
    /// `image`: the picture (or video) under the water.
    pub image: Option<String>,
    /// `obstacles`: the walls' picture (dark pixels are walls).
    pub obstacles: Option<String>,
    /// `water_mask`: white pixels are water, dark ones land the waves stay off and the render
    /// leaves untouched.
    pub water_mask: Option<String>,
    /// `heights`: a NumPy `.npy` height field the water starts from (read by `ripples render`).
    pub heights: Option<String>,
    /// `sky`: the picture the natural look reflects (the built-in gradient when absent).
    pub sky: Option<String>,
    /// `stiffness_map`: the spring solver's stiffness as a greyscale picture, black =
    /// `stiffness_range[0]`, white = `[1]`.
    pub stiffness_map: Option<String>,
    /// `viscosity_map`: as `stiffness_map`, for the viscosity.
    pub viscosity_map: Option<String>,
    /// Each `[[float]]`'s `image` (PNG or JPEG, alpha respected, scaled to the disc), by float:
    /// as many as the scene has floats.
    pub float_images: Vec<Option<String>>,
}

/// The tables of a scene file that hold file keys.
#[derive(Debug, Clone, Copy)]
enum Table {
    /// The top level: the scene's own keys.
    Scene,
    /// The `[[float]]` of this index.
    Float(usize),
}

/// A key naming a file: its name, the key it follows in the list an unknown key's error offers
/// (the order the keys had when the core held them), and where its value goes (given the
/// float's index, for a float's key).
struct FileKey {
    key: &'static str,
    after: &'static str,
    slot: fn(&mut SceneFiles, usize) -> &mut Option<String>,
}

impl FileKey {
    const fn new(
        key: &'static str,
        after: &'static str,
        slot: fn(&mut SceneFiles, usize) -> &mut Option<String>,
    ) -> Self {
        Self { key, after, slot }
    }
}

/// The top level's file keys.
static SCENE_KEYS: [FileKey; 7] = [
    FileKey::new("image", "damping_shift", |files, _| &mut files.image),
    FileKey::new("obstacles", "boundary", |files, _| &mut files.obstacles),
    FileKey::new("water_mask", "obstacles", |files, _| &mut files.water_mask),
    FileKey::new("heights", "photo", |files, _| &mut files.heights),
    FileKey::new("sky", "heights", |files, _| &mut files.sky),
    FileKey::new("stiffness_map", "viscosity", |f, _| &mut f.stiffness_map),
    FileKey::new("viscosity_map", "stiffness_map", |f, _| {
        &mut f.viscosity_map
    }),
];

/// A `[[float]]`'s file keys.
static FLOAT_KEYS: [FileKey; 1] = [FileKey::new("image", "thickness", |files, index| {
    if files.float_images.len() <= index {
        files.float_images.resize(index + 1, None);
    }
    &mut files.float_images[index]
})];

impl Table {
    /// The keys of this table that name files.
    fn file_keys(self) -> &'static [FileKey] {
        match self {
            Table::Scene => &SCENE_KEYS,
            Table::Float(_) => &FLOAT_KEYS,
        }
    }

    /// Where the value of `key`, one of this table's file keys, goes.
    fn slot<'f>(self, files: &'f mut SceneFiles, key: &FileKey) -> &'f mut Option<String> {
        let index = match self {
            Table::Scene => 0,
            Table::Float(index) => index,
        };
        (key.slot)(files, index)
    }

    /// Every key of this table, the core's `fields` with the file keys among them, for the
    /// unknown-key error (computed once per table).
    fn all_keys(self, fields: &'static [&'static str]) -> &'static [&'static str] {
        static SCENE: OnceLock<Vec<&'static str>> = OnceLock::new();
        static FLOAT: OnceLock<Vec<&'static str>> = OnceLock::new();
        let cell = match self {
            Table::Scene => &SCENE,
            Table::Float(_) => &FLOAT,
        };
        cell.get_or_init(|| {
            let mut keys = fields.to_vec();
            for file_key in self.file_keys() {
                let after = keys.iter().position(|&key| key == file_key.after);
                keys.insert(after.map_or(keys.len(), |at| at + 1), file_key.key);
            }
            keys
        })
    }
}

/// Reads a scene from `deserializer`, with the files it names.
pub fn deserialize_scene<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<(Scene, SceneFiles), D::Error> {
    let mut files = SceneFiles::default();
    let scene = Scene::deserialize(WithFiles {
        inner: deserializer,
        files: &mut files,
        table: Table::Scene,
    })?;
    files.float_images.resize(scene.floats.len(), None);
    Ok((scene, files))
}

/// A deserializer of one table that takes its file keys out into `files`.
struct WithFiles<'f, D> {
    inner: D,
    files: &'f mut SceneFiles,
    table: Table,
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for WithFiles<'_, D> {
    type Error = D::Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let visitor = TableVisitor {
            inner: visitor,
            files: self.files,
            table: self.table,
            fields,
        };
        self.inner.deserialize_struct(name, fields, visitor)
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_any(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// The visitor of a table: the core's, given a map that takes the file keys out.
struct TableVisitor<'f, V> {
    inner: V,
    files: &'f mut SceneFiles,
    table: Table,
    fields: &'static [&'static str],
}

impl<'de, V: Visitor<'de>> Visitor<'de> for TableVisitor<'_, V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        self.inner.expecting(formatter)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.inner.visit_map(TableMap {
            inner: map,
            files: self.files,
            table: self.table,
            fields: self.fields,
            floats_next: false,
        })
    }

    // A struct may be written as an array of its values in order; those go to the core as
    // they are.
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.inner.visit_seq(seq)
    }
}

/// A table's keys and values, its file keys taken out.
struct TableMap<'f, A> {
    inner: A,
    files: &'f mut SceneFiles,
    table: Table,
    fields: &'static [&'static str],
    /// Whether the next value is the scene's `[[float]]` array.
    floats_next: bool,
}

/// A key as read: one of the core's, or one naming a file.
enum Key {
    Core(String),
    File(&'static FileKey),
}

/// Reads a key of `table`, refusing one that is neither the core's nor a file key (inside
/// `toml`'s reading of the key, so the error carries the key's line).
struct KeySeed {
    table: Table,
    fields: &'static [&'static str],
}

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
        let key = String::deserialize(deserializer)?;
        if let Some(file_key) = self.table.file_keys().iter().find(|file| file.key == key) {
            Ok(Key::File(file_key))
        } else if self.fields.contains(&key.as_str()) {
            Ok(Key::Core(key))
        } else {
            Err(de::Error::unknown_field(
                &key,
                self.table.all_keys(self.fields),
            ))
        }
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for TableMap<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        loop {
            let key_seed = KeySeed {
                table: self.table,
                fields: self.fields,
            };
            match self.inner.next_key_seed(key_seed)? {
                None => return Ok(None),
                Some(Key::File(key)) => {
                    let path = self.inner.next_value::<String>()?;
                    *self.table.slot(self.files, key) = Some(path);
                }
                Some(Key::Core(key)) => {
                    self.floats_next = matches!(self.table, Table::Scene) && key == "float";
                    return seed.deserialize(key.into_deserializer()).map(Some);
                }
            }
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        if std::mem::take(&mut self.floats_next) {
            self.inner.next_value_seed(FloatsSeed {
                inner: seed,
                files: self.files,
            })
        } else {
            self.inner.next_value_seed(seed)
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

/// The scene's `[[float]]` array, each float's file keys taken out.
struct FloatsSeed<'f, S> {
    inner: S,
    files: &'f mut SceneFiles,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for FloatsSeed<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.inner.deserialize(Floats {
            inner: deserializer,
            files: self.files,
        })
    }
}

/// The deserializer of the `[[float]]` array.
struct Floats<'f, D> {
    inner: D,
    files: &'f mut SceneFiles,
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Floats<'_, D> {
    type Error = D::Error;

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_seq(FloatsVisitor {
            inner: visitor,
            files: self.files,
        })
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_any(FloatsVisitor {
            inner: visitor,
            files: self.files,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

/// The visitor of the `[[float]]` array: the core's, given a sequence whose floats lose their
/// file keys.
struct FloatsVisitor<'f, V> {
    inner: V,
    files: &'f mut SceneFiles,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for FloatsVisitor<'_, V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        self.inner.expecting(formatter)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.inner.visit_seq(FloatSeq {
            inner: seq,
            files: self.files,
            index: 0,
        })
    }
}

/// The floats, one by one.
struct FloatSeq<'f, A> {
    inner: A,
    files: &'f mut SceneFiles,
    index: usize,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for FloatSeq<'_, A> {
    type Error = A::Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        let float = FloatSeed {
            inner: seed,
            files: self.files,
            index: self.index,
        };
        self.index += 1;
        self.inner.next_element_seed(float)
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

/// One float's table.
struct FloatSeed<'f, S> {
    inner: S,
    files: &'f mut SceneFiles,
    index: usize,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for FloatSeed<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.inner.deserialize(WithFiles {
            inner: deserializer,
            files: self.files,
            table: Table::Float(self.index),
        })
    }
}
