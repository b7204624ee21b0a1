import BoutiqueQueries
func f() {
    _ = Reminder.where { r in (r.listID == 1 && !r.isDone) || r.priority == 3 }
}
