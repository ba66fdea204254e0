-- Queries of core/rooms/access.py: memberships, read and changed as the current user (row-level security).

-- name: room_members
SELECT m.user_id, u.display_name, u.email, m.role
FROM room_members m JOIN users u ON u.id = m.user_id
WHERE m.room_id = %(room_id)s
ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 ELSE 2 END, u.display_name

-- name: my_role
SELECT role FROM room_members WHERE room_id = %(room_id)s AND user_id = workbench_user()

-- name: set_member
INSERT INTO room_members (room_id, user_id, role) VALUES (%(room_id)s, %(user_id)s, %(role)s)
ON CONFLICT (room_id, user_id) DO UPDATE SET role = EXCLUDED.role

-- name: remove_member
DELETE FROM room_members WHERE room_id = %(room_id)s AND user_id = %(user_id)s

-- name: sheet_room
SELECT r.id, r.name FROM sheets s JOIN documents d ON d.id = s.document_id JOIN rooms r ON r.id = d.room_id
WHERE s.id = %(sheet_id)s
