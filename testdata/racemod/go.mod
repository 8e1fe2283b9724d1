module racemod

go 1.26
