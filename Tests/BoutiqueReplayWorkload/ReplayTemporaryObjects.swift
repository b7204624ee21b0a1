import BoutiqueDB

// Temporary triggers and a temporary view made with the query builder, created on the writer of every
// database that runs the workload. Their writes reach tables of the file, so the change log must hold
// them as it holds every other write: replaying it without the triggers must give the same rows.

@Table("list")
struct WorkloadList {
    let id: Int
    var name: String
    var position: Double?
}

@Table("reminder")
struct WorkloadReminder {
    let id: Int
    @Column("list_id") var listID: Int
    var title: String?
    var done: Int
    var priority: Int?
}

@Table("tag") @BoutiqueTable(withoutRowID: true)
struct WorkloadTag {
    @Column(primaryKey: true) let name: String
    var color: String?
}

@Table("note")
struct WorkloadNote {
    @Column(primaryKey: true) let key: String
    var body: String?
    var owner: Int?
}

@Table("audit")
struct WorkloadAudit {
    let id: Int
    var what: String
    var at: Int
}

@Table("counter")
struct WorkloadCounter {
    @Column(primaryKey: true) let name: String
    var n: Int
}

/// The reminders not done, as a temporary view, written through INSTEAD OF triggers.
@Table("pending_reminder") @Selection
struct PendingReminder {
    @Column(primaryKey: true) let id: Int
    @Column("list_id") let listID: Int
    let title: String?
}

extension ReplayWorkload {
    /// The temporary view, on every connection, and the triggers, on the writer:
    /// `options.prepareDatabase { conn in try ReplayWorkload.createTemporaryObjects(on: conn) }`.
    public static func createTemporaryObjects(on conn: PreparedConnection) throws {
        try conn.execute(
            PendingReminder.createTemporaryView(
                as: WorkloadReminder.where { $0.done == 0 }
                    .select { PendingReminder.Columns(id: $0.id, listID: $0.listID, title: $0.title) }))
        guard conn.isWriter else { return }
        for trigger in temporaryTriggers { try conn.execute(trigger) }
    }

    /// Every temporary trigger, as the SQL statements they are.
    static var temporaryTriggers: [any QueryStatement] {
        [
            WorkloadList.createTemporaryTrigger(
                "workload_list_added",
                after: .insert { new in
                    WorkloadAudit.insert { ($0.what, $0.at) } values: { ("list added: it's", new.id) }
                }),
            // Fires on the workload's renames; it updates another column, so it never fires itself.
            WorkloadList.createTemporaryTrigger(
                "workload_list_renamed",
                after: .update(of: { $0.name }, touch: { $0.position = $0.position + 0.5 })),
            WorkloadReminder.createTemporaryTrigger(
                "workload_priority_changed",
                after: .update(of: { $0.priority }) { _, _ in
                    WorkloadCounter.where { $0.name.eq("priorities") }.update { $0.n = $0.n + 1 }
                } when: { old, new in
                    old.priority != new.priority
                }),
            WorkloadTag.createTemporaryTrigger(
                "workload_tag_deleted",
                after: .delete { old in
                    WorkloadAudit.insert { ($0.what, $0.at) } values: { (old.name, -1) }
                }),
            WorkloadNote.createTemporaryTrigger(
                "workload_note_deleting",
                before: .delete { old in
                    WorkloadAudit.insert { ($0.what, $0.at) } values: { (old.key, 0) }
                } when: { old in
                    old.owner.isNot(nil)
                }),
            PendingReminder.createTemporaryTrigger(
                "workload_pending_insert",
                insteadOf: .insert { new in
                    WorkloadReminder.insert { ($0.listID, $0.title) } values: { (new.listID, new.title) }
                }),
            PendingReminder.createTemporaryTrigger(
                "workload_pending_update",
                insteadOf: .update { old, new in
                    WorkloadReminder.where { $0.id.eq(old.id) }.update { $0.title = new.title }
                }),
            PendingReminder.createTemporaryTrigger(
                "workload_pending_delete",
                insteadOf: .delete { old in
                    WorkloadReminder.where { $0.id.eq(old.id) }.update { $0.done = 1 }
                }),
        ]
    }
}
