"""Answers to the walkthroughs' write and explain exercises as learners write them: for each exercise, confident
wrong answers (a swapped pair, a negated caveat, a keyword salad, a fact given to the wrong subject, a plausible
wrong reason) and right answers in other forms (numbers in words, rounding stated or implied, a percent or a
fraction, romanised names, thousands separators, units, terse notes).

Each answer is a template filled with the facts of the author's world (``facts(eid)``: a fresh sandbox, each
walkthrough run top to bottom), so the corpus follows the data when it changes; ``True`` marks a right answer.

``DEV`` is what the judge was developed against; ``HOLDOUT`` was written at the same time and run only once the
judge was done (the closing report of issue 42 gives both scores), so a judge tuned to its own corpus shows.
``tests/test_answer_corpus.py`` runs both.
"""
from __future__ import annotations

NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                "sixteen seventeen eighteen nineteen").split()
TENS = {20: "twenty", 30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy", 80: "eighty", 90: "ninety"}


def words(n: int) -> str:
    """``n`` (0–99) in English words: 42 → forty-two."""
    if n < 20:
        return NUMBER_WORDS[n]
    tens, ones = divmod(n, 10)
    return TENS[tens * 10] + (f"-{NUMBER_WORDS[ones]}" if ones else "")


# ---------------------------------------------------------------------------------------------------------- 00.2
# {overall}: the products' availability (%), {least}: the least available product, {least_pct}: its availability,
# {other}: another product with an incident, {other_pct}: its availability.
DEV = {}
HOLDOUT = {}

DEV["00.2"] = [
    # right, in other forms
    ("This week our products were available {overall}% of the time. Local was the least available product, at "
     "{least_pct}%. All dates are in UTC.", True),
    ("Overall availability over the seven days was {overall:.1f}%. The weakest product was {least}, which was up "
     "{least_pct:.1f}% of the time. The days in the report are UTC days.", True),
    ("Across all products we were up {overall}% of the week; {least} had the lowest availability ({least_pct}%). "
     "Please note the dates are UTC, not Seoul time.", True),
    ("Availability: {overall}% for all products together. Least available: {least} ({least_pct}%). Dates: UTC "
     "days.", True),
    ("Our services were available about {overall:.1f} percent of the time last week. {least} was down the most, "
     "so it had the lowest availability. Days are counted in UTC.", True),
    ("The products together were available {overall}% of the time, and the least available one was {least}. "
     "Every date in the update is a UTC day (Seoul is nine hours ahead).", True),
    ("Last week the platform's products were up {overall}% of the time overall. {least} was the least available "
     "of them. All the dates are Coordinated Universal Time.", True),
    ("Good news overall: {overall}% availability across the products this week. The one to watch is {least}, the "
     "least reliable at {least_pct}%. Times and dates are given in UTC.", True),
    ("{least} had the worst availability this week ({least_pct}%), while all products combined reached "
     "{overall}%. The report's days run on UTC.", True),
    ("이번 주 전체 제품의 가용성은 {overall}%였습니다. 가장 가용성이 낮은 제품은 {least}였습니다. 날짜는 UTC 기준입니다.", True),
    # wrong: the two figures swapped
    ("Our products were available {least_pct}% of the time this week. {least} was the least available, at "
     "{overall}%. All dates are UTC days.", False),
    # wrong: another product named as the least available
    ("This week our products were available {overall}% of the time. {other} was the least available product, at "
     "{other_pct}%. All dates are UTC days.", False),
    # wrong: a negated caveat (the time zone denied)
    ("Our products were available {overall}% of the time. {least} was the least available. The dates are KST, "
     "not UTC.", False),
    # wrong: keyword salad
    ("{overall} {least} UTC blah blah blah blah blah blah blah blah blah blah blah blah", False),
    ("products availability {overall} percent least {least} UTC days week report manager figures numbers", False),
    # wrong: the overall figure given to the least available product
    ("{least} was the least available product, up {overall}% of the time this week. All dates are UTC days, "
     "and the other products did better.", False),
    # wrong: the least available product said to be the most available
    ("Our products were available {overall}% of the time. {least} was the most available product this week. The "
     "dates are UTC days.", False),
    # wrong: the caveat left out, the time zone said to be Seoul's
    ("Our products were available {overall}% of the time this week; {least} was the least available. The dates "
     "are Korean days, in Seoul time.", False),
    # wrong: the least available product negated
    ("Our products were available {overall}% of the time. {least} was not the least available product, despite "
     "its outage. All dates are UTC.", False),
    # wrong: a plausible but wrong overall figure (an unweighted guess)
    ("All products were available 100% of the time this week except {least}, the least available one. The dates "
     "are UTC days.", False),
]
HOLDOUT["00.2"] = [
    ("Availability this week: {overall}% overall across our products, with {least} lowest at {least_pct}%. "
     "Dates are UTC.", True),
    ("The products were available roughly {overall:.1f}% of the time in the seven UTC days covered; the least "
     "available was {least}.", True),
    ("The worst performer was {least}, but overall the products were available {overall}% of the time. I used "
     "UTC dates throughout.", True),
    ("We had {overall}% availability for the products as a whole. Of them, {least} was the least available. The "
     "dates follow UTC.", True),
    ("{other} was the least available product this week. Overall availability was {overall}%, dates in UTC.",
     False),
    ("Overall the products were available {least_pct}% of the time, and the least available was {least}, "
     "measured in UTC days.", False),
    ("Our products were available {overall}% of the time and {least} was the least available. All dates are in "
     "Korean Standard Time.", False),
    ("UTC {least} {overall}% least available overall products dates week blah blah blah blah", False),
]

# ---------------------------------------------------------------------------------------------------------- 01.4
# {linked}: users linked, {email}: of them sharing the e-mail, {who}: who withdrew most recently (Hangul),
# {who_en}: romanised, {other}: another demo user (Hangul), {other_en}: romanised.
DEV["01.4"] = [
    ("{linked} users are linked to the app, and {email} of them share their e-mail address with us. The most "
     "recent withdrawal was {who}'s: she took back her e-mail consent.", True),
    ("Consent is going fine: {linked_w} users have linked their accounts and {email_w} of them agreed to share "
     "their e-mail. The latest person to withdraw a consent was {who_en}.", True),
    ("Out of the {linked} linked users, {email} share their e-mail address (account_email). {who_en} withdrew a "
     "consent most recently, taking back her e-mail.", True),
    ("We have {linked} users connected to the app. {email} of those {linked} let us read their e-mail. Most "
     "recently, {who} revoked her e-mail consent.", True),
    ("Linked users: {linked}. Sharing their e-mail: {email}. Last withdrawal: {who} ({who_en}), who took back the "
     "e-mail item.", True),
    ("{Linked_w} people use the app through their account, and {email_w} of them share their e-mail. The most "
     "recent person to pull a consent was {who_en}.", True),
    ("{who_en} was the last to withdraw consent (her e-mail). Apart from that, {email} of our {linked} linked "
     "users share their e-mail address.", True),
    ("앱에 연결된 사용자는 {linked}명이고, 그중 {email}명이 이메일을 공유합니다. 가장 최근에 동의를 철회한 사람은 {who}입니다.", True),
    ("{linked} accounts are linked. Of these, {email} agreed to share their e-mail, so most do. {who}, user "
     "4100000001, withdrew her e-mail consent most recently.", True),
    ("Right now {linked} users are linked and {email} share their e-mail address with the app. The most recent "
     "withdrawal came from {who_en}, who revoked account_email.", True),
    # wrong: the counts swapped
    ("{email} users are linked to the app, and {linked} of them share their e-mail address. The most recent "
     "withdrawal was {who}'s.", False),
    # wrong: the wrong person
    ("{linked} users are linked to the app and {email} of them share their e-mail. The most recent withdrawal "
     "was {other}'s: {other_en} took back a consent.", False),
    # wrong: the withdrawal negated
    ("{linked} users are linked to the app, and {email} of them share their e-mail. {who} has not withdrawn any "
     "consent; nobody has.", False),
    # wrong: keyword salad
    ("linked {linked} e-mail {email} withdrew {who} users consent app most recent share numbers blah", False),
    # wrong: the e-mail count given to those who do not share it
    ("{linked} users are linked to the app. {email} of them do not share their e-mail address. The most recent "
     "withdrawal was {who}'s.", False),
    # wrong: the linked count as the e-mail count (everyone shares)
    ("All {linked} linked users share their e-mail address with the app, so consent is going very well. {who} "
     "withdrew a consent most recently.", False),
    # wrong: plausible wrong numbers
    ("{linked_plus} users are linked to the app and {email} of them share their e-mail. The most recent withdrawal "
     "was {who}'s, this morning.", False),
    # wrong: the withdrawer given as the one who agreed
    ("{linked} users are linked to the app and {email} of them share their e-mail. {who} was the most recent to "
     "agree to share her e-mail; nobody withdrew.", False),
    # wrong: a number without its role (which is which?)
    ("The numbers are {linked} and {email}, and the name is {who}. That is the state of consent in the app this "
     "week, as asked.", False),
    ("{linked} users share their e-mail address with the app. {email} users are linked in all. The last "
     "withdrawal was {who}'s.", False),
]
HOLDOUT["01.4"] = [
    ("{email_w} of our {linked_w} linked users share their e-mail. The latest withdrawal: {who_en} took back her "
     "e-mail consent.", True),
    ("There are {linked} users linked to the app; {email} of them have agreed to account_email. {who} was the "
     "most recent user to withdraw consent.", True),
    ("{who} withdrew most recently. Overall, the app has {linked} linked users, {email} of whom share an e-mail "
     "address.", True),
    ("Consent: {linked} linked users, {email} sharing e-mail, and the last withdrawal by {who_en}.", True),
    ("{linked} users are linked; {email} share their e-mail. The most recent withdrawal was by {other_en}.", False),
    ("{email} users are linked and {linked} share their e-mail address, and {who} withdrew most recently.", False),
    ("{linked} users are linked and {email} of them share their e-mail. Nobody has withdrawn a consent yet, "
     "including {who}.", False),
    ("{who} {linked} {email} linked e-mail withdraw share users app consent recently", False),
]

# ---------------------------------------------------------------------------------------------------------- 03b.2
# {stored}: users stored in the file, {spent}: what they spent together (KRW), {sent}: the users sent.
DEV["03b.2"] = [
    ("The file 겨울 VIP now stores {stored} users, who spent {spent:,} KRW together. The other users are not in it "
     "because they had not added our channel: a customer file keeps only users who added it.", True),
    ("겨울 VIP holds {stored_w} users; together they spent {spent:,} won. Most of the {sent:,} users we sent are "
     "missing because only people who have added the channel can be stored.", True),
    ("Only {stored} users are stored in the file, with a total spend of ₩{spent:,}. The rest never added the "
     "channel _xcLqmC, so the platform did not keep them.", True),
    ("The customer file has {stored} users in it now. Their purchases add up to {spent_k}k won. The others were "
     "left out because they are not friends of the channel (they did not add it).", True),
    ("After the delete, the file keeps {stored} users who spent {spent:,} KRW in all. A customer file only stores "
     "users who added the channel, and most of the {sent:,} had not.", True),
    ("{stored} users are stored; together they spent about {spent_about:,} won. The others are not in the file "
     "since they hadn't added our channel.", True),
    ("The file stores {stored} users, total spending {spent:,} KRW. Users who did not add the channel were "
     "dropped by the platform, which is why most of the users we sent are not there.", True),
    ("겨울 VIP 파일에는 {stored}명이 저장되어 있고, 이들의 구매금액 합계는 {spent:,}원입니다. 채널을 추가한 사용자만 저장되기 때문에 "
     "나머지는 저장되지 않았습니다.", True),
    ("We sent {sent:,} users but the file only kept {stored}: the ones who had added the channel. Those {stored} "
     "spent {spent:,} KRW together.", True),
    ("There are {stored} users in 겨울 VIP, and their 구매금액 totals {spent:,} KRW. The others were not stored "
     "because they never added the channel.", True),
    # wrong: the two numbers swapped / mixed up
    ("The file stores {sent:,} users, who spent {spent:,} KRW together. Only users who added the channel are "
     "stored.", False),
    # wrong: a wrong reason
    ("The file stores {stored} users, who spent {spent:,} KRW together. The others are missing because they had "
     "not logged in to our app and given consent.", False),
    # wrong: the reason inverted
    ("The file stores {stored} users, who spent {spent:,} KRW together. The others were not stored because they "
     "had added the channel, and added users are excluded.", False),
    # wrong: the reason negated
    ("The file stores {stored} users, who spent {spent:,} KRW together. It is not because of the channel that the "
     "others are missing; the platform just drops users at random.", False),
    # wrong: keyword salad
    ("file {stored} users {spent:,} KRW added channel stored spent others VIP numbers here", False),
    # wrong: spend given per user instead of in total
    ("The file stores {stored} users, and each of them spent {spent:,} KRW. The others are not stored because "
     "they had not added the channel.", False),
    # wrong: a plausible wrong total
    ("The file stores {stored} users, who spent {spent_wrong:,} KRW together. The others had not added the channel, "
     "so they were not stored.", False),
    # wrong: the delete blamed
    ("The file stores {stored} users, who spent {spent:,} KRW together. The others were removed by the delete we "
     "ran, which emptied most of the file.", False),
    # wrong: the stored count missing
    ("The users in the file spent {spent:,} KRW together. The others are not in it because they had not added "
     "the channel, which is the rule for customer files.", False),
    # wrong: the number of users not stored given as stored
    ("The file stores {missing:,} users who spent {spent:,} KRW together. The others were dropped because they "
     "had not added the channel.", False),
]
HOLDOUT["03b.2"] = [
    ("Only {stored_w} users made it into 겨울 VIP, spending {spent:,} KRW between them; everyone else had not added "
     "the channel, so the file could not keep them.", True),
    ("The file keeps {stored} users (total spend {spent:,} won). A customer file only keeps people who added the "
     "channel, which most of the {sent:,} had not done.", True),
    ("{stored} users, {spent:,} KRW spent together; the rest were not stored as they never added _xcLqmC.", True),
    ("겨울 VIP has {stored} users now, who together spent roughly {spent_about:,} won. Users who hadn't added the "
     "channel were left out.", True),
    ("The file stores {stored} users who spent {spent:,} KRW. The others were not stored because they had blocked "
     "the app.", False),
    ("The file stores {stored} users, who spent {spent:,} KRW together. The others were not stored although they "
     "had not added the channel: the platform rejected them because of consent.", False),
    ("It stores {spent:,} users who spent {stored} KRW together; the rest had not added the channel.", False),
    ("VIP stored added channel {stored} {spent:,} KRW users spent others file", False),
]

# ---------------------------------------------------------------------------------------------------------- 04b.4
# {district}: the district with most customers (Hangul), {district_en}: romanised, {there}: customers there,
# {unplaced}: customers not on the map, {share}: their share of all spending (%), {customers}: all customers,
# {second}: another district.
DEV["04b.4"] = [
    ("Most of our customers live in {district}: {there} of {customers}. The map leaves out {unplaced} customers "
     "whose address could not be placed; together they spent {share:.1f}% of all spending.", True),
    ("{district_en} has the most customers, {there_w} of them. {unplaced_w} customers are not on the map, and "
     "they account for only {share:.2f}% of spending.", True),
    ("The district with the most customers is {district_en}-gu ({there} customers). {unplaced} customers could "
     "not be mapped; their spending is about {share:.0f}% of the total.", True),
    ("{district} leads with {there} customers. Left off the map: {unplaced} customers with a blank, unclear or "
     "out-of-town address, who spent {share:.1f} percent of all sales.", True),
    ("Note: {unplaced} customers could not be placed on the map (they spent {share:.1f}% of the total). The "
     "busiest district is {district}, where {there} customers live.", True),
    ("이 지도에서 고객이 가장 많은 구는 {district}로 {there}명입니다. 지도에 표시되지 않은 고객은 {unplaced}명이며, 전체 구매액의 "
     "{share:.1f}%를 차지합니다.", True),
    ("Most customers are in {district_en} ({there}). The map misses {unplaced} of our {customers} customers, worth "
     "{share:.1f}% of spending, so the picture holds.", True),
    ("{there} customers live in {district}, more than in any other district. {unplaced} more could not be located; "
     "their purchases make up {share:.1f}% of the total.", True),
    ("{district_en} is home to the most customers ({there}). The {unplaced} unplaced customers spent {share:.1f}% "
     "of everything, a small share, so the map is representative.", True),
    ("The map shows where {placed} of our {customers} customers live, with {district} first at {there}. The other "
     "{unplaced} are missing from it and spent {share:.1f}% of all spending.", True),
    # wrong: the two counts swapped
    ("Most of our customers live in {district}: {unplaced} of {customers}. The map leaves out {there} customers; "
     "together they spent {share:.1f}% of all spending.", False),
    # wrong: the wrong district
    ("Most of our customers live in {second}: {there} of {customers}. The map leaves out {unplaced} customers; "
     "together they spent {share:.1f}% of all spending.", False),
    # wrong: the share given to the district
    ("Most of our customers live in {district}, {there} of them, who spent {share:.1f}% of all spending. The map "
     "leaves out {unplaced} customers.", False),
    # wrong: the map said to leave out nobody
    ("Most of our customers live in {district}: {there} of {customers}. The map does not leave out any customer; "
     "{unplaced} customers spent {share:.1f}% of all spending.", False),
    # wrong: keyword salad
    ("{district} {there} {unplaced} {share:.1f}% customers map district spending left out placed", False),
    # wrong: the share misread (a count read as a percent)
    ("Most of our customers live in {district}: {there} of {customers}. The map leaves out {unplaced} customers, "
     "{unplaced_pct:.1f}% of all spending.", False),
    # wrong: the district with the highest spend per customer named
    ("Most of our customers live in 기장군, {there} of them. The map leaves out {unplaced} customers, who spent "
     "{share:.1f}% of all spending.", False),
    # wrong: the unplaced count missing, a caveat instead
    ("Most of our customers live in {district}: {there} of {customers}. Some customers are not on the map, and "
     "they spent {share:.1f}% of all spending.", False),
    # wrong: the number of customers in the district is the file's count
    ("Most of our customers live in {district}: all {customers} of them. The map leaves out {unplaced} customers, "
     "who spent {share:.1f}% of all spending.", False),
    ("{district} has the fewest customers, {there}. The map leaves out {unplaced} customers who spent {share:.1f}% "
     "of all spending.", False),
]
HOLDOUT["04b.4"] = [
    ("Busanjin-gu has the most customers ({there}); the {unplaced} customers the map could not place spent "
     "{share:.1f}% of the total.", True),
    ("{there_w} customers live in {district}, the most of any district. {unplaced_w} customers are missing from "
     "the map; they spent under {share_ceil}% ({share:.1f}%) of all spending.", True),
    ("The top district is {district} with {there} customers. {unplaced} customers, {share:.2f}% of spending, could "
     "not be placed on the map.", True),
    ("Most customers: {district_en}, {there}. Not on the map: {unplaced} customers ({share:.1f}% of spending).",
     True),
    ("Most customers live in {district}, {there} of them, and {unplaced} customers are not on the map: they spent "
     "{share_wrong:.1f}% of all spending.", False),
    ("{unplaced} customers live in {district}, the most of any district, and {there} could not be placed; they "
     "spent {share:.1f}% of the spending.", False),
    ("Most customers live in {district} ({there}); the map leaves out nobody, since all {customers} addresses were "
     "placed.", False),
    ("{district} {there} customers most map {unplaced} not placed {share:.1f}% spending", False),
]

# ---------------------------------------------------------------------------------------------------------- 05.4
# {km}: distance, {minutes}: driving time, {fare}: taxi fare (KRW).
DEV["05.4"] = [
    ("By car from 부산대학교 to 자갈치시장 it is {km:.1f} km and takes about {minutes:.0f} minutes; a taxi costs "
     "about {fare:,} KRW. The time is an estimate of the sandbox's traffic model, not observed traffic.", True),
    ("It's a {km:.0f} km drive of roughly {minutes:.0f} minutes at 18:00, and a taxi would be about "
     "{fare_round:,} won. Take the time as a rough guide: it comes from a traffic model, not from real traffic.",
     True),
    ("The trip is {km:.1f} kilometres and should take {minutes_w} minutes; the taxi fare is ₩{fare:,}. That time "
     "is only the sandbox's estimate from its model of traffic at that hour.", True),
    ("Distance: {km:.1f} km. Driving time: about {minutes:.0f} min. Taxi: {fare:,} KRW. The duration is modelled "
     "(synthetic roads and simulated traffic), so trust it only roughly.", True),
    ("Expect about {minutes:.0f} minutes for the {km:.1f} km, and roughly {fare_round:,} won by taxi. The time "
     "is not measured traffic: it is the sandbox's model, so treat it as an estimate.", True),
    ("From PNU to Jagalchi Market is {km:.1f} km, about {minutes:.0f} minutes by car and {fare:,} KRW by taxi. "
     "Don't rely on the minutes too much: they are simulated, not observed.", True),
    ("부산대학교에서 자갈치시장까지 {km:.1f}km, 약 {minutes:.0f}분이 걸리고 택시비는 {fare:,}원입니다. 시간은 샌드박스의 교통 모델이 "
     "추정한 값입니다.", True),
    ("The drive is {metres:,} m long, around {minutes:.0f} minutes, and a taxi costs {fare:,} won. The minutes "
     "are a model's estimate rather than observed traffic.", True),
    ("A taxi would charge {fare:,} KRW for the {km:.1f} km trip, which the model puts at about {minutes:.0f} "
     "minutes at 18:00. This is an estimate from synthetic traffic, not a measurement.", True),
    ("Roughly {km:.0f} km and {minutes:.0f} minutes by car; about {fare_round:,} won in a taxi. The time is an "
     "estimate the sandbox makes from its traffic model.", True),
    # wrong: the caveat negated and turned around
    ("By car it is {km:.1f} km and takes about {minutes:.0f} minutes; a taxi costs about {fare:,} KRW. The time "
     "is not a model or an estimate: it is observed traffic.", False),
    # wrong: the distance and the minutes swapped
    ("By car it is {minutes:.0f} km and takes about {km:.0f} minutes; a taxi costs about {fare:,} KRW. The time is "
     "an estimate of a traffic model.", False),
    # wrong: seconds passed on as minutes
    ("By car it is {km:.1f} km and takes about {seconds:,} minutes; a taxi costs about {fare:,} KRW. The time is "
     "an estimate of the sandbox's traffic model.", False),
    # wrong: metres passed on as kilometres
    ("By car it is {metres:,} km and takes about {minutes:.0f} minutes; a taxi costs about {fare:,} KRW. The time "
     "is an estimate of the sandbox's traffic model.", False),
    # wrong: keyword salad
    ("{km:.1f} km {minutes:.0f} minutes {fare:,} KRW model estimate taxi time trip car", False),
    # wrong: the caveat says real traffic
    ("By car it is {km:.1f} km and takes about {minutes:.0f} minutes; a taxi costs about {fare:,} KRW. You can "
     "trust the time: it reflects live traffic on Busan's roads at 18:00.", False),
    # wrong: the fare wrong (the toll read as the fare)
    ("By car it is {km:.1f} km and takes about {minutes:.0f} minutes; a taxi costs about 1,000 KRW. The time is an "
     "estimate of the sandbox's traffic model.", False),
    # wrong: the fare left out
    ("By car it is {km:.1f} km and takes about {minutes:.0f} minutes, and a taxi is the easiest way to go. The "
     "time is an estimate of the sandbox's traffic model.", False),
    # wrong: a rounding too far
    ("By car it is about 20 km and takes about an hour; a taxi costs about 20,000 KRW. The time is an estimate "
     "of the sandbox's traffic model.", False),
    # wrong: the fare given as the distance
    ("The taxi ride is {fare:,} km long and the fare is {km:.1f} KRW, taking about {minutes:.0f} minutes. The time "
     "is an estimate of the traffic model.", False),
]
HOLDOUT["05.4"] = [
    ("The drive covers {km:.1f} km in about {minutes_w} minutes, with a taxi at about {fare:,} won; the minutes "
     "are a traffic model's estimate, not measured.", True),
    ("About {minutes:.0f} minutes and {km:.1f} km by car, {fare:,} KRW by taxi. The sandbox estimates the time "
     "from a model of traffic, so it is approximate.", True),
    ("{km:.1f} km, {minutes:.0f} min, taxi {fare:,} KRW; the time is simulated by the sandbox's model, not "
     "observed.", True),
    ("It's {km:.1f} km; roughly {minutes:.0f} minutes at 18:00; a taxi is around {fare_round:,} won. Treat the "
     "time as an estimate from a model.", True),
    ("It is {km:.1f} km and takes {minutes:.0f} minutes; a taxi costs {fare:,} KRW. The time comes from real "
     "traffic measurements, so it is reliable.", False),
    ("It is {minutes:.0f} km and takes {km:.1f} minutes by car; taxi {fare:,} KRW, a model's estimate.", False),
    ("It is {km:.1f} km and takes {minutes:.0f} minutes; a taxi costs {fare:,} KRW. The time is definitely not an "
     "estimate.", False),
    ("model {km:.1f} {minutes:.0f} {fare:,} estimate km minutes KRW taxi", False),
]

# ---------------------------------------------------------------------------------------------------------- 07.4
# {linked}: users linked, {asked}: users asked for the e-mail, {agreed}: of them agreeing, {share}: agreed ÷ asked
# (%), {share_linked}: agreed ÷ linked (%), the misconception.
DEV["07.4"] = [
    ("{linked} users are linked to the app. Of the {asked} users asked to share their e-mail address, {agreed} "
     "agree now ({share}%).", True),
    ("We have {linked_w} linked users. {share:.0f}% of the users we asked agree to share their e-mail "
     "(account_email).", True),
    ("{agreed} of the {asked} users asked for their e-mail address agree to share it, that is {share}%. In all "
     "{linked} users are linked to the app.", True),
    ("{linked} users are linked. The e-mail consent rate is {share}% of those asked ({agreed} out of {asked}).",
     True),
    ("Nine users are linked to the app, and seven in eight of the users asked agree to share their e-mail "
     "address.", True),
    ("E-mail sharing: {share:.1f} percent of the users we asked said yes. The app has {linked} linked users in "
     "total.", True),
    ("Linked users: {linked}. Share of the users asked who agree to share their e-mail: {share_frac} ({agreed}/"
     "{asked}).", True),
    ("About 88% of the users asked agree to share their e-mail with the app; {linked} users are linked.", True),
    ("앱에 연결된 사용자는 {linked}명입니다. 이메일 공유를 요청받은 사용자 중 {share}%가 동의했습니다.", True),
    ("The app has {linked} linked users. When asked for their e-mail address, {agreed} of {asked} said yes "
     "({share:.0f}%); one withdrew later.", True),
    # wrong: the rate over every linked user
    ("{linked} users are linked to the app, and {share}% of them share their e-mail address.", False),
    ("{linked} users are linked to the app. {share_linked:.1f}% of the users asked agree to share their e-mail "
     "address.", False),
    # wrong: the counts swapped
    ("{asked} users are linked to the app. Of the {linked} users asked, {agreed} share their e-mail ({share}%).",
     False),
    # wrong: the item not named (which consent?)
    ("{linked} users are linked to the app. {share}% of the users asked agree to it, which is a good rate for "
     "this kind of consent.", False),
    # wrong: the rate negated
    ("{linked} users are linked to the app. {share}% of the users asked do not agree to share their e-mail "
     "address.", False),
    # wrong: keyword salad
    ("{linked} linked {share}% e-mail asked agree users app share item", False),
    # wrong: the share of refusals
    ("{linked} users are linked to the app. Of the users asked, {refused_share}% agree to share their e-mail "
     "address.", False),
    # wrong: the linked count wrong (the asked count)
    ("{asked} users are linked to the app, and {share}% of the users asked agree to share their e-mail.", False),
    # wrong: the share given to another item
    ("{linked} users are linked to the app. {share}% of the users asked agree to share their phone number.",
     False),
    ("All {linked} linked users were asked for their e-mail and {agreed} of them agree, {share}%.", False),
]
HOLDOUT["07.4"] = [
    ("There are {linked} linked users; of those asked for their e-mail, {share:.0f}% agree ({agreed} of {asked}).",
     True),
    ("{Linked_w} users are linked to the app. {agreed_w} of the {asked_w} users asked agree to share their e-mail "
     "address.", True),
    ("E-mail consent stands at {share}% of the users asked, across {linked} linked users.", True),
    ("{share}% of those asked share their e-mail (account_email); {linked} users are linked in all.", True),
    ("{linked} users are linked and {share_linked:.0f}% of them share their e-mail.", False),
    ("{agreed} users are linked, and {share}% of the users asked agree to share their e-mail.", False),
    ("{linked} users are linked; {share}% of the users asked refuse to share their e-mail address.", False),
    ("e-mail {share}% {linked} asked linked agree share", False),
]

# ---------------------------------------------------------------------------------------------------------- 04a.1
DEV["04a.1"] = [
    ("No lot in 전포동 is numbered 341 alone: the 8 addresses are 341-1, 341-5 and so on. The similar search matches "
     "every sub-number of main number 341, while exact wants that very number.", True),
    ("Because there is no plain 341. Similar treats 341 as a main number and finds all the lots 341-something; "
     "exact needs a lot numbered exactly 341, and none is.", True),
    ("Every lot it found has a sub-number (341-1, 341-17, ...). 'similar' matches any lot whose main number is "
     "341, but 'exact' only returns the lot 341 itself, which does not exist.", True),
    ("The lot 341 on its own does not exist in 전포동; only 341-x lots do. The similar search matches those "
     "sub-numbers, the exact one does not.", True),
    ("similar lets 341 match 341-1, 341-5 and the other sub-numbers; exact looks for 341 with no sub-number, and "
     "there is no such lot.", True),
    ("All eight results are sub-lots of 341. With analyze_type='similar' the main number matches every sub-lot; "
     "with 'exact' only a lot numbered 341 alone would match, and there isn't one.", True),
    ("전포동에는 341번지 자체가 없고 341-1, 341-5 같은 부번만 있습니다. similar는 본번 341에 딸린 모든 부번을 찾고, exact는 정확히 "
     "341인 번지만 찾습니다.", True),
    ("There is no lot that is just 341. The default similar mode matches the main number and returns each sub-number "
     "under it, which is why it found 8.", True),
    ("None of the lots is numbered 341 by itself; they are all 341 with a sub-number. Similar matches those, exact "
     "wants an exact match for 341.", True),
    ("The exact search wants the exact lot 341, which doesn't exist: the lots are 341-1 to 341-17. The similar "
     "search matches the main number with any sub-number.", True),
    # wrong: road-name addresses (option b of the old choice)
    ("The exact search only looks at road-name addresses, and 전포동 341 is a land-lot address, so it finds "
     "nothing; similar searches both kinds.", False),
    # wrong: pages (option c)
    ("The exact search stopped before its first page of results; reading every page with address_all would find "
     "the 8 addresses too.", False),
    # wrong: swapped roles
    ("Exact matches every sub-number of 341, while similar wants the very number 341; there is no lot numbered "
     "341 alone.", False),
    # wrong: the lot said to exist
    ("There is a lot numbered 341 in 전포동, but exact does not return it because exact matching is case-sensitive "
     "and strict.", False),
    # wrong: spelling
    ("Similar is fuzzy about spelling, so it also finds 전포동 written in other ways; exact needs the spelling to "
     "match character for character.", False),
    # wrong: keyword salad
    ("similar exact 341 sub-number main number lot 전포동 eight none", False),
    # wrong: similar said to be random nearby
    ("Similar returns the 8 nearest addresses around 전포동 341 whatever their numbers, and exact returns only "
     "addresses that were checked by hand.", False),
    # wrong: the sub-number claim negated
    ("The lots found are not sub-numbers of 341; similar just finds addresses that look alike, and exact found "
     "none because of a typo.", False),
    # wrong: the quota blamed
    ("The exact search hit the daily quota after the similar one, so it answered with no rows; run it again "
     "tomorrow.", False),
    ("Because exact search is broken for land-lot numbers in Busan, while similar search works; the lot 341 exists "
     "but exact can't see it.", False),
]
HOLDOUT["04a.1"] = [
    ("341 only exists with a sub-number here (341-1, 341-5, ...). Similar matches the main number 341 with all its "
     "sub-numbers; exact needs a lot that is exactly 341.", True),
    ("Exact finds nothing because no lot is numbered 341 alone; similar finds the 8 lots that start with 341 and "
     "have a sub-number.", True),
    ("There's no lot 341 by itself, just 341-x lots, and the similar search counts every one of those.", True),
    ("전포동 has no lot numbered plain 341. The similar analysis matches 341 as a main number and returns the eight "
     "sub-lots.", True),
    ("Exact searches road-name addresses only, and similar reads land lots: that's why only similar found the 8.",
     False),
    ("Similar wants that very number 341 and exact matches any sub-number, so exact should have found more.", False),
    ("The lot 341 exists, but exact is stricter about the district name, so it found nothing.", False),
    ("341 exact similar lots sub-numbers main eight", False),
]

# ---------------------------------------------------------------------------------------------------------- 07.3
DEV["07.3"] = [
    ("No linked user was ever asked for it, so there is no one to count a rate over: a 0% bar would say that "
     "everyone asked refused.", True),
    ("Nobody was asked for chat rooms, so n is 0 and there is no rate to draw.", True),
    ("Because the app never requested that item from anyone. A rate needs people who were asked; with zero asked "
     "it would be a division by zero, not 0%.", True),
    ("It was never asked of any user, so its rate is undefined. Drawing it at 0% would suggest everyone refused "
     "it.", True),
    ("Not a single user has been asked for talk_chats, so there is nothing to divide by: no rate exists, and 0% "
     "would be misleading.", True),
    ("0% would mean that all the users who were asked said no, but no one was asked, so the figure lists it apart "
     "as never asked.", True),
    ("아무도 이 항목에 대한 동의를 요청받지 않았기 때문에 비율을 계산할 수 없습니다. 0%는 요청받은 모두가 거절했다는 뜻이 됩니다.", True),
    ("The consent for chat rooms was never requested, so there is no denominator: it has no rate at all, which is "
     "different from a rate of 0%.", True),
    ("None of the users were asked about it. An agreement rate only makes sense over users who were asked.", True),
    ("Nobody has been asked yet, so the rate cannot be computed; the figure shows it under the bars instead of "
     "pretending it is 0%.", True),
    # wrong: agreement instead of asking
    ("Nobody agreed to it, and the figure leaves out rates of 0%, so it is listed under the bars instead.", False),
    # wrong: required items
    ("The app requires chat rooms, and required items are drawn apart from the optional ones, under the bars.",
     False),
    # wrong: everyone refused
    ("Everyone who was asked refused it, so it has no bar: the chart only draws items someone agreed to.", False),
    # wrong: negated
    ("It is not that nobody was asked: users were asked and all declined, so the rate is 0% and the bar is "
     "empty.", False),
    # wrong: keyword salad
    ("never asked rate 0% bar chat rooms users n zero", False),
    # wrong: a display limit
    ("The figure has room for only eight bars, so the last item goes under them; its rate is probably 0%.", False),
    # wrong: withdrawn
    ("Everyone withdrew their consent to chat rooms, so the rate dropped to 0% and the bar disappeared.", False),
    # wrong: the wrong item asked
    ("All users were asked for it but the sandbox did not record the answers, so the figure cannot draw the bar.",
     False),
    ("Because its rate is exactly 0%, and matplotlib does not draw a bar of zero width, so it is listed under "
     "the chart.", False),
    ("Chat rooms is a new item that nobody has agreed to yet, so its agreement rate is 0%.", False),
]
HOLDOUT["07.3"] = [
    ("No user has ever been asked for that item, so no rate can be computed: there is no one to count.", True),
    ("It was asked of nobody (n = 0). A 0% bar would wrongly say that all the users asked refused.", True),
    ("The app never asked anyone for chat rooms, so there is no rate: dividing by zero users is meaningless.", True),
    ("Since no linked user was asked, the item has no agreement rate; 0% would claim refusals that never "
     "happened.", True),
    ("Nobody agreed to chat rooms, so its rate is 0%, and rates of 0% are hidden.", False),
    ("It is a required item, so it is shown separately from the bars.", False),
    ("All users were asked and every one refused, so the figure shows it as never asked.", False),
    ("0% chat rooms never asked bar rate users", False),
]

EXERCISES = sorted(DEV)


def _score(judge) -> dict[str, tuple[int, int, int, int]]:
    """Per exercise: (right answers passed, right answers, wrong answers refused, wrong answers) under ``judge``."""
    from tests.test_answer_corpus import values

    out = {}
    for eid in EXERCISES:
        rows = [(template.format(**values(eid)), right) for template, right in DEV[eid] + HOLDOUT[eid]]
        verdicts = [(bool(judge(eid, text)), right) for text, right in rows]
        out[eid] = (sum(ok and right for ok, right in verdicts), sum(right for _, right in verdicts),
                    sum(not ok and not right for ok, right in verdicts), sum(not right for _, right in verdicts))
    return out


def _checker_at(rev: str):
    """The self-check of the write exercises as it was at git revision ``rev`` (toolkit/lessons.py's judging and
    tests/lesson_answers.py's rules; the live rules in the author's world as tests/test_lessons.py stated it then)."""
    import ast
    import subprocess
    import types

    def show(path):
        return subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True, check=True).stdout

    import sys

    old = types.ModuleType("toolkit._lessons_then")
    old.__package__ = "toolkit"
    sys.modules[old.__name__] = old          # its dataclasses look their module up
    exec(compile(show("toolkit/lessons.py"), f"{rev}:toolkit/lessons.py", "exec"), old.__dict__)
    answers = types.ModuleType("tests._lesson_answers_then")
    exec(compile(show("tests/lesson_answers.py"), f"{rev}:tests/lesson_answers.py", "exec"), answers.__dict__)
    tests = show("tests/test_lessons.py")
    author = next(n for n in ast.parse(tests).body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "")
                  == "AUTHOR")
    author = eval(compile(ast.Expression(author.value), "AUTHOR", "eval"), {"RULES": answers.RULES})

    def judge(eid, text):
        import copy

        rule = copy.deepcopy(answers.RULES[eid])
        rule.update(author.get(eid, {}))
        return old._judge(eid, text, rule)
    return judge


def main(argv: list[str]) -> int:
    """``python -m tests.answer_corpus [--rev REV]``: how the corpus is judged now (and at git revision REV)."""
    from tests.test_answer_corpus import author_rule
    import toolkit.lessons as lessons

    checkers = {"now": lambda eid, text: lessons._judge(eid, text, author_rule(eid))}
    if "--rev" in argv:
        rev = argv[argv.index("--rev") + 1]
        checkers[rev] = _checker_at(rev)
    for name, judge in checkers.items():
        scores = _score(judge)
        print(f"{name}: right answers accepted, wrong answers refused (of {sum(s[1] + s[3] for s in scores.values())})")
        for eid, (ok_right, right, no_wrong, wrong) in scores.items():
            print(f"  {eid:6} {ok_right:3}/{right:<3} right accepted   {no_wrong:3}/{wrong:<3} wrong refused")
        total = [sum(s[i] for s in scores.values()) for i in range(4)]
        print(f"  {'all':6} {total[0]:3}/{total[1]:<3} right accepted   {total[2]:3}/{total[3]:<3} wrong refused")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
