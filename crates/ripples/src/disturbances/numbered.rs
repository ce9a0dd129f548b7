//! What a pool holds under ids it hands out (its bodies, its floats): a list kept in the order
//! things were added, each under an id never given twice, so an id the caller kept names the
//! same thing or nothing. One list serves every kind, so bodies and floats cannot drift apart
//! in how they are added, found and removed.

/// An id a [`Numbered`] list hands out, made from its counter. (Crate-private, so callers
/// cannot make ids of their own.)
pub(crate) trait Counted: Copy + PartialEq {
    fn from_counter(counter: u64) -> Self;
}

/// Things of type `T` under ids of type `Id` (made from a counter), in the order they were added.
#[derive(Debug, Clone)]
pub(crate) struct Numbered<Id, T> {
    list: Vec<(Id, T)>,
    next_id: u64,
}

impl<Id, T> Default for Numbered<Id, T> {
    fn default() -> Self {
        Self {
            list: Vec::new(),
            next_id: 0,
        }
    }
}

impl<Id: Counted, T> Numbered<Id, T> {
    /// Adds `item` under a new id.
    pub(crate) fn add(&mut self, item: T) -> Id {
        let id = Id::from_counter(self.next_id);
        self.next_id += 1;
        self.list.push((id, item));
        id
    }

    pub(crate) fn remove(&mut self, id: Id) -> Option<T> {
        let index = self.list.iter().position(|(each, _)| *each == id)?;
        Some(self.list.remove(index).1)
    }

    pub(crate) fn get(&self, id: Id) -> Option<&T> {
        self.list
            .iter()
            .find(|(each, _)| *each == id)
            .map(|(_, item)| item)
    }

    pub(crate) fn get_mut(&mut self, id: Id) -> Option<&mut T> {
        self.list
            .iter_mut()
            .find(|(each, _)| *each == id)
            .map(|(_, item)| item)
    }

    pub(crate) fn clear(&mut self) {
        self.list.clear();
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// The things, in the order they were added.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> + Clone {
        self.list.iter().map(|(_, item)| item)
    }

    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.list.iter_mut().map(|(_, item)| item)
    }

    /// Keeps only the things `keep` says yes to.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        self.list.retain(|(_, item)| keep(item));
    }
}
