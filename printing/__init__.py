"""Every printed document (PDF): scoresheets, table cards, PIN slips, settlements, ranking and prize lists."""
