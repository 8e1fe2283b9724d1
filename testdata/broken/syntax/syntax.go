package syntax

func F( {
