"""The draw in the database and every change after it: series, seats, no-shows, late
arrivals, substitutes, a redraw."""
